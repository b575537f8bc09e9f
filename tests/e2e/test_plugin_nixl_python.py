"""`nixl --transfer` through the worker image's own NIXL Python API, against the fake API server.

Scenario nixl-python-play: every pod has this machine's python3 and the stand-in `nixl` package
(roots/nixl-python: NIXL's names, signatures and exception types; real bytes over a socket; host
memory) and no other transfer tool; pod IPs are loopback addresses, so the two sides really
connect. One pair per behaviour, chosen with --pair. Bandwidth here is a Python socket's: the
tests assert how it is judged (never ok: host memory), not how fast it is.
Run: cd tests/e2e && ICHECK_PLUGIN=../../build/kubectl-dynamo_icheck python3 run.py test_plugin_nixl_python
"""
import os
import re
import signal
import socket
import subprocess
import threading
import time
import unittest

import harness
from test_plugin_nixl import NixlMixin

PLAY = "nixl-python-play"


def pair_of(name):
    return "%s-%s-prefill,%s-%s-decode" % (PLAY, name, PLAY, name)


def transfer_checks(doc, name):
    return [c for t in doc["targets"] if t["name"].startswith("%s-%s-" % (PLAY, name))
            for c in t["checks"] if c["name"] == "transfer"]


def knock(ip, port, stop, got_in):
    """Strangers on the decode side's test port, as soon as it listens: a port scanner's
    connect-and-close, then a client that streams 32 MiB without a line end."""
    while not stop.is_set() and len(got_in) < 2:
        try:
            s = socket.create_connection((ip, port), timeout=1)
        except OSError:
            time.sleep(0.01)
            continue
        got_in.append(ip)
        if len(got_in) == 2:
            try:
                s.settimeout(10)
                s.sendall(b"\x16\x03\x01" + b"x" * (32 << 20))
            except OSError:
                pass
        s.close()


class TestNixlPython(NixlMixin, unittest.TestCase):
    def run_pair(self, c, name, timeout="20s", extra=()):
        rc, doc, err, _ = self.run_nixl(c, PLAY, ["--transfer", "--pair", pair_of(name),
                                                  "--transfer-timeout", timeout] + list(extra))
        self.assertEqual(harness.only_reads(c.request_log()), [])
        checks = transfer_checks(doc, name)
        self.assertEqual(len(checks), 2, doc["targets"])
        self.assertEqual(checks[0], checks[1])  # one finding, on both pods of the pair
        return rc, doc, checks[0]

    def transfer_commands(self, c):
        return [r["query"]["command"] for r in c.request_log()
                if r["path"].endswith("/exec") and (r["query"].get("command") or [""])[0] == "timeout"]

    def test_only_python_nixl_runs_a_checked_transfer_judged_against_the_ports(self):
        with harness.FakeCluster(PLAY) as c:
            rc, doc, f = self.run_pair(c, "ok")
            # The stand-in moves the bytes over a TCP socket into host memory: judged as such.
            self.assertIn(f["status"], ("fail", "warn"), f)
            self.assertEqual(f["layer"], "nixl")
            self.assertRegex(f["detail"], r"NIXL Python API %s-ok-prefill \(node node-pyok-p\) -> %s-ok-decode "
                                          r"\(node node-pyok-d\): \d+\.\d GB/s" % (PLAY, PLAY))
            self.assertIn("; data verified both ways (4 blocks of 16 MiB, pattern unique to this run), "
                          "host memory (64 MiB) on both sides; host memory only (", f["detail"])
            self.assertTrue(f["detail"].endswith("): GPUDirect not tested"), f)
            self.assertEqual(doc["verdict"]["status"], "blocked" if f["status"] == "fail" else "unconfirmed")
            self.assertEqual(rc, 2 if f["status"] == "fail" else 1)
            self.assertIn("NIXL's own Python API (nixl._api) in both worker containers: the KV cache's NIXL, "
                          "UCX, environment and GPU memory, data pattern checked", doc["verdict"]["limitations"])
            tools = harness.details(doc)[("%s-ok-decode" % PLAY, "tools")]
            self.assertEqual(tools, "NIXL's Python API (the transfer test's first choice)")
            # Each side is the worker container's own python3, bounded by `timeout` and tied to
            # the exec stream; decode listens on its pod IP, prefill connects to it.
            cmds = self.transfer_commands(c)
            self.assertEqual(len(cmds), 2, cmds)
            for cmd, role in zip(cmds, ("target", "initiator")):
                self.assertEqual(cmd[:4], ["timeout", "20", "sh", "-c"])
                at = cmd.index("python3")
                self.assertEqual((cmd[at + 1], cmd[at + 3], cmd[at + 4], cmd[at + 5]), ("-c", role, "--ip", "127.0.71.2"))
                self.assertIn("import nixl._api as api", cmd[at + 2])
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_a_corrupted_byte_fails_naming_corruption_and_its_offset(self):
        with harness.FakeCluster(PLAY) as c:
            rc, doc, f = self.run_pair(c, "corrupt")
            self.assertEqual((f["status"], f["layer"]), ("fail", "nixl"), f)
            self.assertIn("data corrupted in transit: the decode side found byte 8388608 (block 0) ", f["detail"])
            self.assertRegex(f["detail"], r"0x[0-9a-f]{2}, expected 0x[0-9a-f]{2} after the WRITE, whatever the bandwidth$")
            self.assertEqual((doc["verdict"]["status"], doc["verdict"]["layer"], rc), ("blocked", "nixl", 2))
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_nixl_errors_fail_at_nixl_with_the_error_line(self):
        cases = [("backend", "create agent with backend UCX"), ("register", "register DRAM memory")]
        with harness.FakeCluster(PLAY) as c:
            for name, step in cases:
                with self.subTest(pair=name):
                    rc, doc, f = self.run_pair(c, name)
                    self.assertEqual((f["status"], f["layer"]), ("fail", "nixl"), f)
                    self.assertTrue(f["detail"].endswith(
                        "NIXL error: decode side: icheck-nixl: error: %s: nixl._bindings.nixlBackendError: "
                        "NIXL_ERR_BACKEND" % step), f)
                    self.assertEqual((doc["verdict"]["status"], rc), ("blocked", 2))
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_connected_then_hang_fails_within_the_timeout(self):
        with harness.FakeCluster(PLAY) as c:
            rc, doc, f = self.run_pair(c, "hang", timeout="6s")
            self.assertEqual((f["status"], f["layer"]), ("fail", "nixl"), f)
            self.assertIn("connected, then ", f["detail"])
            self.assertIn("did not finish within 6 s: data did not move", f["detail"])
            self.assertEqual(rc, 2)
            # Rerunning the pair is the next step: the script itself is the plugin's, not the user's.
            self.assertEqual(f["next"], "kubectl dynamo-icheck nixl --transfer --pair %s --test-tool nixl-python "
                                        "--deployment %s -n dynamo" % (pair_of("hang"), PLAY))
            # "did not finish within 6 s" is the script's own stop (the plugin's kill reads
            # otherwise); the hang itself is bounded by run_plugin's subprocess timeout.
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_strangers_on_the_test_port_are_refused_and_waited_past(self):
        with harness.FakeCluster(PLAY) as c:
            got_in, stop = [], threading.Event()
            stranger = threading.Thread(target=knock, args=("127.0.71.2", 13340, stop, got_in))
            stranger.start()
            try:
                rc, doc, f = self.run_pair(c, "ok")
            finally:
                stop.set()
                stranger.join(30)
            self.assertEqual(len(got_in), 2, "the strangers never reached the test port")
            # The pair's own test ran and is judged as without strangers, who are named.
            self.assertIn(f["status"], ("fail", "warn"), f)
            self.assertIn("; data verified both ways (4 blocks of 16 MiB", f["detail"])
            self.assertIn("; the decode side refused 2 connections without this run's seed on the test "
                          "port (the first from 127.0.0.1: closed before a first line)", f["detail"])
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_a_side_deaf_to_sigterm_is_killed_after_the_grace(self):
        # The prefill side ignores SIGTERM inside a transfer call that never returns, and the pod
        # keeps it when the exec stream drops: after Ctrl-C only the remote watcher's SIGKILL ends
        # it before its `timeout 120` would (the fake pod's pid namespace dies with `timeout`).
        with harness.FakeCluster(PLAY) as c:
            args = ["kubectl", "dynamo-icheck", "nixl", "--deployment", PLAY, "-n", "dynamo", "--transfer",
                    "--pair", pair_of("deaf"), "--transfer-timeout", "120s"]
            proc = subprocess.Popen(args, env=c.env(self.VERSION), cwd=c.dir, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True)
            try:
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline and len(self.pythons(c)) < 2:
                    time.sleep(0.1)
                self.assertEqual(len(self.pythons(c)), 2, c.sandbox_processes())
                time.sleep(5)  # the prefill side has posted its transfer: SIGTERM is ignored now
                os.killpg(proc.pid, signal.SIGINT)
                proc.communicate(timeout=30)
                self.assertEqual(proc.returncode, 130)
                # A hang bound: without SIGKILL the deaf side stays until its `timeout 120`.
                self.assertEqual(c.sandbox_processes_left(grace=30.0), [])
            finally:
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()

    def test_a_runaway_line_is_named_not_read_as_never_connected(self):
        with harness.FakeCluster(PLAY) as c:
            rc, doc, f = self.run_pair(c, "chatty")
            self.assertEqual(f["status"], "skipped", f)
            self.assertIn("the decode side printed more than the 4 MiB output cap (one line of about 4 MiB when it was cut), "
                          "so the test was stopped: not judged", f["detail"])
            self.assertNotIn("never connected", f["detail"])
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_ctrl_c_leaves_no_process_in_either_pod(self):
        # The hang pair keeps running when its exec stream drops (keep_on_disconnect, as a real
        # runtime does): only the remote side's tie to its stdin can end it.
        with harness.FakeCluster(PLAY) as c:
            self.interrupt_transfer(c, PLAY, pair_of("hang"), self.pythons, wait_s=60)

    @staticmethod
    def pythons(c):
        # The transfer's sides only: the probe's own python3 processes (NIXL and UCX asked in a
        # fresh process) come and go before it.
        return [p for p in c.sandbox_processes()
                if re.match(r"\d+: python3 -c ", harness._sandbox.describe(p))
                and "icheck-nixl:" in harness._sandbox.describe(p)]

    def test_test_tool_names_a_tool_the_images_lack(self):
        with harness.FakeCluster(PLAY) as c:
            rc, doc, f = self.run_pair(c, "ok", extra=["--test-tool", "nixlbench"])
            self.assertEqual(f["status"], "skipped", f)
            self.assertTrue(f["detail"].startswith("--transfer asked, but no test can run: --test-tool nixlbench: "
                                                   "not in both images"), f)
            # Nothing else is at fault but the deployment's backend-error pods, whose NIXL cannot
            # create its UCX backend (asked before any transfer).
            at_fault = sorted(t["name"] for t in doc["targets"]
                              if any(k["status"] == "fail" for k in t["checks"]))
            self.assertEqual(at_fault, ["%s-backend-decode" % PLAY, "%s-backend-prefill" % PLAY])
            self.assertEqual((doc["verdict"]["status"], doc["verdict"]["layer"], rc), ("blocked", "nixl", 2))
            self.assertEqual(self.transfer_commands(c), [])


if __name__ == "__main__":
    unittest.main()
