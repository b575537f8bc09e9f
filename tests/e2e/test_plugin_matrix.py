"""`nixl --transfer --matrix rails`: the tested pair once per (prefill NIC, decode NIC) cell, each
pinned to its two NICs (UCX_NET_DEVICES), through the real kubectl against the fake API server.

Scenario ucx-matrix: this machine's real Debian UCX 1.13 in both pods, the engine's
UCX_NET_DEVICES naming lo and eth0 with UCX_TLS=tcp; UCX's tcp transport reaches lo only from lo
of the same machine (one boot_id: a real rail-isolated 2x2) and eth0 only from eth0; between two
machines (two boot_ids) lo reaches nothing. Scenario nixl-matrix: a
synthetic stand-in ucx_perftest (roots/ucx-perftest-rails) for a healthy 2x2, one slow rail, and a
budget that runs out. Asserted: how the plugin plans, runs and judges the cells, never how fast.
Scenario ucx-nodes (--matrix nodes): deployment ucx-nodes-ok is 2 prefill + 2 decode pods on 4
nodes with nixl-matrix's synthetic stand-in (a healthy 2x2 node matrix, a budget that runs out);
deployment ucx-nodes-lo is 2 prefill + 2 decode pods on 3 nodes running real Debian UCX over tcp,
whose one prefill engine names only lo: that node reaches no peer node.
Run: cd tests/e2e && ICHECK_PLUGIN=../../build/kubectl-dynamo_icheck python3 run.py test_plugin_matrix
"""
import json
import os
import re
import shutil
import signal
import subprocess
import time
import unittest

import harness
from test_plugin_nixl import NixlMixin

FAKE = "nixl-matrix"
REAL = "ucx-matrix"


def check_of(doc, pod, name="transfer"):
    return next(c for t in doc["targets"] if t["name"] == pod for c in t["checks"] if c["name"] == name)


def check_facts(doc):
    """The matrix in the prefill pod's facts; the decode pod's carries the same."""
    facts = {t["role"]: t["facts"].get("transferMatrix") for t in doc["targets"] if t["facts"].get("transferMatrix")}
    assert facts["prefill"] == facts["decode"], facts
    return facts["prefill"]


def transfer_commands(c):
    return [" ".join(r["query"]["command"]) for r in c.request_log()
            if r["path"].endswith("/exec") and (r["query"].get("command") or [""])[0] == "timeout"]


def ucx_tcp_devices():
    """The interfaces this machine's UCX offers its tcp transport (ucx_info -d)."""
    if not shutil.which("ucx_info", path="/usr/bin"):
        return set()
    out = subprocess.run(["/usr/bin/ucx_info", "-d"], capture_output=True, text=True, timeout=30).stdout
    devices, transport = set(), None
    for line in out.splitlines():
        m = re.match(r"#\s+Transport: (\S+)", line)
        if m:
            transport = m.group(1)
        m = re.match(r"#\s+Device: (\S+)", line)
        if m and transport == "tcp":
            devices.add(m.group(1))
    return devices


class TestMatrixReal(NixlMixin, unittest.TestCase):
    def setUp(self):
        if not shutil.which("ucx_perftest", path="/usr/bin"):
            self.skipTest("no /usr/bin/ucx_perftest here: tools/deps.sh installs ucx-utils")
        if not {"lo", "eth0"} <= ucx_tcp_devices():
            self.skipTest("this machine's UCX offers tcp on %s, not lo and eth0" % sorted(ucx_tcp_devices()))

    def run_real(self, c, pair):
        rc, doc, err, _ = self.run_nixl(c, REAL, ["--transfer", "--matrix", "rails", "--transfer-timeout", "30s",
                                                  "--pair", "%s-prefill,%s-decode" % (pair, pair)])
        self.assertEqual(harness.only_reads(c.request_log()), [])
        return rc, doc, err

    def test_real_ucx_on_one_machine_pinned_per_nic_is_a_rail_isolated_2x2(self):
        pair = REAL + "-rail"
        with harness.FakeCluster(REAL) as c:
            rc, doc, err = self.run_real(c, pair)
            f = check_of(doc, pair + "-prefill")
            self.assertEqual((f["status"], f["layer"]), ("fail", "nixl"), f)
            self.assertIn("NIC matrix 2x2: rail-isolated fabric: each prefill NIC reaches only the decode NIC of "
                          "its own rail (lo -> lo, eth0 -> eth0); the engine assumes any NIC reaches any NIC "
                          "(kvcache-ai/Mooncake #166", f["detail"])
            self.assertEqual(check_of(doc, pair + "-decode")["detail"], f["detail"])
            self.assertEqual((doc["verdict"]["status"], rc), ("blocked", 2), err)
            m = check_facts(doc)
            self.assertEqual((m["prefillNics"], m["decodeNics"], m["prefillNicSource"]),
                             (["lo", "eth0"], ["lo", "eth0"], "UCX_NET_DEVICES"))
            self.assertEqual([(x["prefillNic"], x["decodeNic"], x["state"]) for x in m["cells"]],
                             [("lo", "lo", "reached"), ("lo", "eth0", "unreachable"),
                              ("eth0", "lo", "unreachable"), ("eth0", "eth0", "reached")])
            self.assertIn("Destination is unreachable", m["cells"][1]["detail"])
            # Each side pinned to its cell's NIC, every cell on a port of its own.
            cmds = transfer_commands(c)
            self.assertEqual(len(cmds), 8, cmds)
            pins = [re.search(r"env UCX_NET_DEVICES=(\S+) /usr/bin/ucx_perftest .*-p (\d+)", cmd).groups()
                    for cmd in cmds]
            self.assertEqual(sorted(n for n, _ in pins), ["eth0"] * 4 + ["lo"] * 4, pins)
            self.assertEqual(len({p for _, p in pins}), 4, pins)
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_real_ucx_between_two_machines_lo_reaches_none(self):
        with harness.FakeCluster(REAL) as c:
            rc, doc, err = self.run_real(c, REAL)
            f = check_of(doc, REAL + "-prefill")
            self.assertEqual((f["status"], f["layer"]), ("fail", "nixl"), f)
            self.assertIn("NIC matrix 2x2: prefill NIC lo reaches none of decode's NICs (lo, eth0); decode NIC lo is "
                          "reached by none of prefill's NICs (lo, eth0)", f["detail"])
            self.assertNotIn("rail-isolated", f["detail"])
            states = [x["state"] for x in check_facts(doc)["cells"]]
            self.assertEqual(states, ["unreachable", "unreachable", "unreachable", "reached"])
            self.assertEqual((doc["verdict"]["status"], rc), ("blocked", 2), err)
            self.assertEqual(c.sandbox_processes_left(), [])


class TestMatrixStandIn(NixlMixin, unittest.TestCase):
    def run_case(self, c, case, extra=(), output="json"):
        pair = "%s-%s-prefill,%s-%s-decode" % (FAKE, case, FAKE, case)
        rc, out, err, _ = c.run_plugin(self.VERSION, ["nixl", "--deployment", FAKE, "-n", "dynamo", "-o", output,
                                                      "--transfer", "--pair", pair, "--matrix", "rails"] + list(extra))
        self.assertEqual(harness.only_reads(c.request_log()), [])
        return rc, out, err

    def test_healthy_2x2_is_confirmed_and_printed_as_a_matrix(self):
        with harness.FakeCluster(FAKE) as c:
            rc, out, err = self.run_case(c, "ok")
            doc = harness.json_doc(self, rc, out, err)
            f = check_of(doc, FAKE + "-ok-prefill")
            self.assertEqual(f["status"], "ok", f)
            self.assertTrue(f["detail"].startswith("ucx_perftest %s-ok-prefill -> %s-ok-decode, NIC matrix 2x2: "
                                                   "slowest cell " % (FAKE, FAKE)), f)
            self.assertEqual((doc["verdict"]["status"], rc), ("confirmed", 0), doc["verdict"])
            cells = check_facts(doc)["cells"]
            self.assertEqual([x["state"] for x in cells], ["reached"] * 4)
            self.assertTrue(all(x["gbps"] > 25 for x in cells), cells)
            rc, out, err = self.run_case(c, "ok", output="table")
            self.assertEqual(rc, 0, err)
            self.assertIn("TRANSFER MATRIX  ucx_perftest, GB/s: rows prefill %s-ok-prefill (node h100-ok-p), NICs from "
                          "UCX_NET_DEVICES; columns decode %s-ok-decode (node h100-ok-d), NICs from UCX_NET_DEVICES"
                          % (FAKE, FAKE), out)
            self.assertRegex(out, r"\n  PREFILL \\ DECODE +mlx5_0:1 +mlx5_1:1\n  mlx5_0:1 +\d+\.\d +\d+\.\d\n"
                                  r"  mlx5_1:1 +\d+\.\d +\d+\.\d\n  legend: ")
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_without_matrix_a_multi_rail_pair_names_matrix_rails_as_the_next_step(self):
        with harness.FakeCluster(FAKE) as c:
            pair = "%s-ok-prefill,%s-ok-decode" % (FAKE, FAKE)
            rc, doc, err, _ = self.run_nixl(c, FAKE, ["--transfer", "--pair", pair])
            self.assertEqual(check_of(doc, FAKE + "-ok-prefill")["status"], "ok")
            f = check_of(doc, FAKE + "-ok-decode", "transfer rails")
            self.assertEqual((f["status"], f["layer"]), ("warn", "nixl"), f)
            self.assertEqual(f["detail"], "the transfer took one path, but the engines may use 2 NICs (prefill, "
                                          "UCX_NET_DEVICES) and 2 (decode, UCX_NET_DEVICES): a rail-isolated fabric or "
                                          "one slow rail shows only NIC by NIC")
            self.assertEqual(f["next"], "kubectl dynamo-icheck nixl --transfer --matrix rails --pair %s "
                                        "--deployment %s -n dynamo" % (pair, FAKE))
            self.assertNotIn("transferMatrix", json.dumps(doc))
            self.assertEqual(len(transfer_commands(c)), 2)
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_one_slow_rail_warns_naming_it(self):
        with harness.FakeCluster(FAKE) as c:
            rc, out, err = self.run_case(c, "slow")
            doc = harness.json_doc(self, rc, out, err)
            f = check_of(doc, FAKE + "-slow-decode")
            self.assertEqual(f["status"], "warn", f)
            self.assertRegex(f["detail"], r"slow rail: prefill NIC mlx5_1:1 moves \d+\.\d GB/s against \d+\.\d GB/s "
                                          r"on the other prefill NICs")
            self.assertNotIn("decode NIC", f["detail"])
            self.assertEqual((doc["verdict"]["status"], rc), ("unconfirmed", 1))
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_a_budget_that_runs_out_skips_the_cells_left(self):
        # Each cell may take 5 s; after the first wave (2 s head start at least) 6 s cannot hold
        # another: the second wave's two cells are not run, and the verdict is not confirmed.
        with harness.FakeCluster(FAKE) as c:
            rc, out, err = self.run_case(c, "ok", ["--transfer-timeout", "5s", "--matrix-budget", "6s"])
            doc = harness.json_doc(self, rc, out, err)
            f = check_of(doc, FAKE + "-ok-prefill")
            self.assertEqual(f["status"], "skipped", f)
            self.assertIn("2 of 4 cells not run (mlx5_0:1 -> mlx5_1:1, mlx5_1:1 -> mlx5_0:1): the --matrix-budget "
                          "of 6 s ran out before this cell", f["detail"])
            states = [x["state"] for x in check_facts(doc)["cells"]]
            self.assertEqual(states, ["reached", "not run", "not run", "reached"])
            self.assertEqual(len(transfer_commands(c)), 4)
            self.assertEqual((doc["verdict"]["status"], rc), ("unconfirmed", 1))
            self.assertEqual(c.sandbox_processes_left(), [])


NODES = "ucx-nodes"


def node_cells(doc):
    return {(x["prefillNode"], x["decodeNode"]): x for x in doc["transferNodeMatrix"]["cells"]}


class TestNodeMatrix(NixlMixin, unittest.TestCase):
    """--matrix nodes: one FakeCluster, four runs."""

    @classmethod
    def setUpClass(cls):
        cls.cluster = harness.FakeCluster(NODES)
        cls.c = cls.cluster.__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.cluster.__exit__(None, None, None)

    def run_nodes(self, deployment, extra=("--transfer-timeout", "30s"), output="json"):
        before = len(transfer_commands(self.c))
        rc, out, err, _ = self.c.run_plugin(self.VERSION, ["nixl", "--deployment", deployment, "-n", "dynamo",
                                                           "-o", output, "--transfer", "--matrix", "nodes"]
                                            + list(extra), timeout=300)
        self.assertEqual(harness.only_reads(self.c.request_log()), [])
        self.assertEqual(self.c.sandbox_processes_left(), [])
        return rc, out, err, transfer_commands(self.c)[before:]

    def test_healthy_2x2_node_matrix_is_confirmed_and_printed_nodes_by_nodes(self):
        dep = NODES + "-ok"
        rc, out, err, cmds = self.run_nodes(dep)
        doc = harness.json_doc(self, rc, out, err)
        m = doc["transferNodeMatrix"]
        self.assertEqual((m["prefillNodes"], m["decodeNodes"]),
                         (["node-ucxok-1", "node-ucxok-2"], ["node-ucxok-3", "node-ucxok-4"]))
        self.assertEqual(sorted(node_cells(doc)), [("node-ucxok-%d" % p, "node-ucxok-%d" % d)
                                                   for p in (1, 2) for d in (3, 4)])
        self.assertEqual({x["state"] for x in m["cells"]}, {"reached"}, m["cells"])
        for pod in ("prefill-0", "prefill-1", "decode-0", "decode-1"):
            checks = [c for t in doc["targets"] if t["name"] == "%s-%s" % (dep, pod)
                      for c in t["checks"] if c["name"] == "transfer"]
            self.assertEqual(len(checks), 1, checks)  # once per pod, though each pod is in two cells
            self.assertEqual(checks[0]["status"], "ok", checks[0])
            self.assertTrue(checks[0]["detail"].startswith("node matrix 2x2 (4 node pairs): slowest pair "), checks[0])
        self.assertEqual((doc["verdict"]["status"], rc), ("confirmed", 0), doc["verdict"])
        self.assertIn("node matrix of 4 node pairs: ok", doc["verdict"]["transfer"])
        # 2 sides x 4 cells, each cell on a port of its own.
        self.assertEqual(len(cmds), 8, cmds)
        ports = {re.search(r" -p (\d+)", cmd).group(1) for cmd in cmds}
        self.assertEqual(len(ports), 4, cmds)
        rc, out, err, _ = self.run_nodes(dep, output="table")
        self.assertEqual(rc, 0, err)
        self.assertIn("TRANSFER MATRIX  node by node, GB/s: rows prefill nodes, columns decode nodes", out)
        self.assertRegex(out, r"\n  PREFILL \\ DECODE +node-ucxok-3 +node-ucxok-4\n"
                              r"  node-ucxok-1 +\d+\.\d +\d+\.\d\n  node-ucxok-2 +\d+\.\d +\d+\.\d\n  legend: ")

    def test_ctrl_c_during_a_node_wave_leaves_no_process_and_starts_no_further_wave(self):
        # Four nodes: the first wave runs two cells (four sides) at once, each hanging.
        dep = NODES + "-stall"
        before = len(transfer_commands(self.c))
        args = ["kubectl", "dynamo-icheck", "nixl", "--deployment", dep, "-n", "dynamo", "--transfer",
                "--matrix", "nodes", "--transfer-timeout", "120s"]
        proc = subprocess.Popen(args, env=self.c.env(self.VERSION), cwd=self.c.dir, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
        running = lambda: [p for p in self.c.sandbox_processes() if "sleep 2147483647" in harness._sandbox.describe(p)]
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and len(running()) < 4:
                time.sleep(0.2)
            self.assertGreaterEqual(len(running()), 4, self.c.sandbox_processes())
            os.killpg(proc.pid, signal.SIGINT)
            proc.communicate(timeout=30)
            self.assertEqual(proc.returncode, 130)
            self.assertEqual(self.c.sandbox_processes_left(grace=30.0), [])  # a hang bound, not a speed figure
            self.assertEqual(len(transfer_commands(self.c)[before:]), 4)  # the first wave only
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()

    def test_full_is_the_node_matrix_then_the_first_pair_nic_by_nic(self):
        dep = NODES + "-ok"
        before = len(transfer_commands(self.c))
        rc, out, err, _ = self.c.run_plugin(self.VERSION, ["nixl", "--deployment", dep, "-n", "dynamo", "-o", "json",
                                                           "--transfer", "--matrix", "full"], timeout=300)
        doc = harness.json_doc(self, rc, out, err)
        cmds = transfer_commands(self.c)[before:]
        self.assertEqual({x["state"] for x in doc["transferNodeMatrix"]["cells"]}, {"reached"})
        first = doc["transferNodeMatrix"]["cells"][0]
        rails = [t["facts"]["transferMatrix"] for t in doc["targets"] if "transferMatrix" in t["facts"]]
        self.assertEqual(len(rails), 2)  # the first node pair's two pods
        self.assertEqual((rails[0]["prefill"], rails[0]["decode"]), (first["prefill"], first["decode"]))
        self.assertEqual([x["state"] for x in rails[0]["cells"]], ["reached"] * 4)
        # The first pair's pods: the node matrix's finding and their NIC matrix's.
        details = sorted(c["detail"].split(":")[0] for t in doc["targets"] if t["name"] == first["prefill"]
                         for c in t["checks"] if c["name"] == "transfer")
        self.assertEqual(len(cmds), 2 * 4 + 2 * 4, cmds)  # 4 node pairs, then 2x2 NICs
        self.assertEqual((doc["verdict"]["status"], rc), ("confirmed", 0), doc["verdict"])
        self.assertIn("node matrix of 4 node pairs: ok; NIC matrix of ", doc["verdict"]["transfer"])
        self.assertEqual(details, ["node matrix 2x2 (4 node pairs)",
                                   "ucx_perftest %s -> %s, NIC matrix 2x2" % (first["prefill"], first["decode"])])
        self.assertEqual(self.c.sandbox_processes_left(), [])

    def test_a_node_slow_with_each_peer_warns_naming_it(self):
        dep = NODES + "-slow"
        rc, out, err, cmds = self.run_nodes(dep)
        doc = harness.json_doc(self, rc, out, err)
        f = check_of(doc, dep + "-decode-0")
        self.assertEqual((f["status"], f["layer"]), ("warn", "nixl"), f)
        self.assertRegex(f["detail"], r"slow node: node-ucxslow-2 moves \d+\.\d GB/s with each peer against "
                                      r"\d+\.\d GB/s between the other pairs")
        self.assertNotIn("slow node pair", f["detail"])
        cells = node_cells(doc)
        self.assertLess(cells[("node-ucxslow-2", "node-ucxslow-3")]["gbps"],
                        cells[("node-ucxslow-1", "node-ucxslow-3")]["gbps"] / 2)
        self.assertEqual((doc["verdict"]["status"], rc), ("unconfirmed", 1))

    def test_a_node_whose_engine_names_only_lo_reaches_no_peer_node(self):
        TestMatrixReal.setUp(self)  # real Debian UCX offering tcp on lo and eth0, or skipped
        dep = NODES + "-lo"
        rc, out, err, cmds = self.run_nodes(dep)
        doc = harness.json_doc(self, rc, out, err)
        cells = node_cells(doc)
        self.assertEqual({k: v["state"] for k, v in cells.items()},
                         {("node-ucxlo-1", "node-ucxlo-3"): "reached",
                          ("node-ucxlo-2", "node-ucxlo-1"): "unreachable",
                          ("node-ucxlo-2", "node-ucxlo-3"): "unreachable"})
        f = check_of(doc, dep + "-prefill-1")
        self.assertEqual((f["status"], f["layer"]), ("fail", "nixl"), f)
        self.assertIn("node matrix 2x2 (3 node pairs): node node-ucxlo-2 reaches no peer node (tried node-ucxlo-1, "
                      "node-ucxlo-3)", f["detail"])
        self.assertNotIn("cannot connect", f["detail"])
        self.assertEqual((doc["verdict"]["status"], rc), ("blocked", 2), err)
        self.assertEqual(doc["verdict"]["transfer"], "node matrix of 3 node pairs: fail (node node-ucxlo-2 reaches "
                                                     "no peer node (tried node-ucxlo-1, node-ucxlo-3))")
        self.assertEqual(len(cmds), 6, cmds)  # no cell of one node with itself

    def test_a_budget_that_runs_out_skips_the_node_pairs_left(self):
        # Cells may take 5 s each: the first wave (two cells on four distinct nodes) starts inside a
        # 6 s budget; after it (2 s head start at least) no whole cell fits: the second wave is not run.
        rc, out, err, cmds = self.run_nodes(NODES + "-ok", ["--transfer-timeout", "5s", "--matrix-budget", "6s"])
        doc = harness.json_doc(self, rc, out, err)
        states = sorted(x["state"] for x in doc["transferNodeMatrix"]["cells"])
        self.assertEqual(states, ["not run", "not run", "reached", "reached"])
        f = check_of(doc, NODES + "-ok-prefill-0")
        self.assertEqual(f["status"], "skipped", f)
        self.assertIn("2 of 4 node pairs not run (", f["detail"])
        self.assertIn("the --matrix-budget of 6 s ran out before this cell", f["detail"])
        self.assertEqual(len(cmds), 4, cmds)
        self.assertEqual((doc["verdict"]["status"], rc), ("unconfirmed", 1))


PLAY = "nixl-transfer-play"


class TestMatrixInterrupt(NixlMixin, unittest.TestCase):
    def test_ctrl_c_during_a_matrix_wave_leaves_no_process_in_either_pod(self):
        # The stall pair's nixlbench hangs and outlives its exec stream (keep_on_disconnect, as a
        # real runtime does); 8 NICs a side: the first wave runs 8 cells at once.
        with harness.FakeCluster(PLAY) as c:
            args = ["kubectl", "dynamo-icheck", "nixl", "--deployment", PLAY, "-n", "dynamo", "--transfer",
                    "--matrix", "rails", "--pair", "%s-stall-prefill,%s-stall-decode" % (PLAY, PLAY),
                    "--transfer-timeout", "120s"]
            proc = subprocess.Popen(args, env=c.env(self.VERSION), cwd=c.dir, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True)
            running = lambda: [p for p in c.sandbox_processes() if "sleep 2147483647" in harness._sandbox.describe(p)]
            try:
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline and len(running()) < 4:
                    time.sleep(0.2)
                self.assertGreaterEqual(len(running()), 4, c.sandbox_processes())
                os.killpg(proc.pid, signal.SIGINT)
                proc.communicate(timeout=30)
                self.assertEqual(proc.returncode, 130)
                # A hang bound, not a speed figure.
                self.assertEqual(c.sandbox_processes_left(grace=30.0), [])
                pinned = [cmd for cmd in transfer_commands(c) if "env UCX_NET_DEVICES=mlx5_" in cmd]
                self.assertEqual(len(pinned), len(transfer_commands(c)))
                self.assertLessEqual(len(pinned), 16)  # the first wave only: no wave starts after the signal
            finally:
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()


if __name__ == "__main__":
    unittest.main()
