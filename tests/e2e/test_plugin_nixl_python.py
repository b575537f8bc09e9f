"""`nixl --transfer` through the worker image's own NIXL Python API, against the fake API server.

Scenario nixl-python-play: every pod has this machine's python3 and the stand-in `nixl` package
(roots/nixl-python: NIXL's names, signatures and exception types; real bytes over a socket; host
memory) and no other transfer tool; pod IPs are loopback addresses, so the two sides really
connect. One pair per behaviour, chosen with --pair. Bandwidth here is a Python socket's: the
tests assert how it is judged (never ok: host memory), not how fast it is.
Run: cd tests/e2e && ICHECK_PLUGIN=../../build/kubectl-dynamo_icheck python3 run.py test_plugin_nixl_python
"""
import re
import unittest

import harness
from test_plugin_nixl import NixlMixin

PLAY = "nixl-python-play"


def pair_of(name):
    return "%s-%s-prefill,%s-%s-decode" % (PLAY, name, PLAY, name)


def transfer_checks(doc, name):
    return [c for t in doc["targets"] if t["name"].startswith("%s-%s-" % (PLAY, name))
            for c in t["checks"] if c["name"] == "transfer"]


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
