"""Real UCX in the pods: Debian 12's ucx-utils (UCX 1.13.1: ucx_info, ucx_perftest) and rdma-core's
ibv_devinfo from this machine (tools/deps.sh installs them), run inside the fake pods.

Scenario ucx-debian: the h100-ib sysfs files, which no real verbs device backs, so the real tools
find no RDMA device; pod IPs are loopback addresses and UCX's tcp transport uses this machine's
interfaces, so the pair's ucx_perftest really moves data between the two pods over TCP. What is
asserted is how the plugin reads and judges what the real tools print, never how fast they are.
Run: cd tests/e2e && ICHECK_PLUGIN=../../build/kubectl-dynamo_icheck python3 run.py test_plugin_ucx_real
"""
import shutil
import unittest

import harness
from test_plugin_nixl import NixlMixin

SCN = "ucx-debian"


def checks_of(doc, pod):
    return {c["name"]: c for t in doc["targets"] if t["name"] == pod for c in t["checks"]}


class TestRealUcx(NixlMixin, unittest.TestCase):
    def setUp(self):
        for tool in ("ucx_info", "ucx_perftest", "ibv_devinfo"):
            if not shutil.which(tool, path="/usr/bin"):
                self.skipTest("no /usr/bin/%s here: tools/deps.sh installs ucx-utils and ibverbs-utils" % tool)

    def test_node_reads_what_real_ucx_and_verbs_print(self):
        pod = SCN + "-tcp-prefill"
        with harness.FakeCluster(SCN) as c:
            rc, out, err, _ = c.run_plugin(self.VERSION, ["node", "--pod", pod, "-n", "dynamo", "-o", "json"])
            doc = harness.json_doc(self, rc, out, err)
            checks = checks_of(doc, pod)
            # UCX finds no RDMA device here: its transports are self, tcp and shared memory.
            t = checks["transports"]
            self.assertEqual((t["layer"], t["status"]), ("ucx", "fail"), t)
            self.assertIn("ucx_info -d lists self, tcp, sysv, posix, cma, no rc/dc", t["detail"])
            v = checks["version"]  # ucx_info -v of UCX < 1.14 prints "# Version 1.13.1"
            self.assertEqual((v["status"], v["detail"][:15]), ("warn", "UCX 1.13.1 < 1."), v)
            # rdma-core's ibv_devinfo, against sysfs that lists 8 HCAs
            self.assertIn("(No IB devices found)", checks["verbs"]["detail"])
            self.assertEqual(doc["verdict"]["status"], "blocked")
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_a_real_perftest_pair_over_tcp_is_judged_and_never_confirmed(self):
        with harness.FakeCluster(SCN) as c:
            rc, doc, err, _ = self.run_nixl(c, SCN, ["--transfer", "--pair", "%s-tcp-prefill,%s-tcp-decode" % (SCN, SCN),
                                                     "--transfer-timeout", "60s"])
            f = checks_of(doc, SCN + "-tcp-decode")["transfer"]
            self.assertIn(f["status"], ("fail", "warn"), f)
            self.assertRegex(f["detail"], r"ucx_perftest %s-tcp-prefill \(node node-ucxtcp-p\) -> %s-tcp-decode "
                                          r"\(node node-ucxtcp-d\): \d+\.\d GB/s" % (SCN, SCN))
            self.assertTrue(f["detail"].endswith("; host memory only (this UCX has no CUDA): GPUDirect not tested"), f)
            self.assertIn(doc["verdict"]["status"], ("blocked", "unconfirmed"))
            self.assertNotEqual(rc, 0)
            # UCX without CUDA refuses -m cuda: the pair ran with host memory, 16 MiB messages.
            cmds = [" ".join(r["query"]["command"]) for r in c.request_log()
                    if r["path"].endswith("/exec") and (r["query"].get("command") or [""])[0] == "timeout"]
            self.assertEqual(len(cmds), 2, cmds)
            for cmd in cmds:
                self.assertIn("/usr/bin/ucx_perftest", cmd)
                self.assertIn("-t tag_bw -m host -s 16777216 -n 100 -p 13337", cmd)
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_a_real_failing_pair_fails_at_ucx_with_its_error(self):
        with harness.FakeCluster(SCN) as c:
            rc, doc, err, _ = self.run_nixl(c, SCN, ["--transfer", "--pair", "%s-tls-prefill,%s-tls-decode" % (SCN, SCN),
                                                     "--transfer-timeout", "30s"])
            f = checks_of(doc, SCN + "-tls-prefill")["transfer"]
            self.assertEqual((f["status"], f["layer"]), ("fail", "ucx"), f)
            self.assertIn("UCX  ERROR no usable transports/devices (asked rc on all devices)", f["detail"])
            self.assertEqual((doc["verdict"]["status"], doc["verdict"]["layer"], rc), ("blocked", "ucx", 2))
            self.assertEqual(c.sandbox_processes_left(), [])


if __name__ == "__main__":
    unittest.main()
