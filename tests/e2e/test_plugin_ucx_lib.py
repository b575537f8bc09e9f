"""UCX and NIXL asked without ucx_info (issue 30): the image's own libucp through python3 ctypes in
a fresh process, judged by the same rules as ucx_info's output and said to come from the library;
the image's own NIXL (nixl._api) creating the backend the deployment uses.

Scenario ucx-lib: real Debian 12 UCX 1.13.1 (libucx0) from this machine; no RDMA device opens in a
sandbox, so UCX lists self, tcp and shared memory: transports fail, decisively, from the library.
Scenario nixl-python-play: the fake nixl package (roots/nixl-python), whose backend-error pods
cannot create a UCX backend.
Run: cd tests/e2e && ICHECK_PLUGIN=../../build/kubectl-dynamo_icheck python3 run.py test_plugin_ucx_lib
"""
import shutil
import unittest

import harness
from test_plugin_nixl import NixlMixin

SCN = "ucx-lib"


def checks_of(doc, pod):
    return {c["name"]: c for t in doc["targets"] if t["name"] == pod for c in t["checks"]}


def facts_of(doc, pod):
    return [t["facts"] for t in doc["targets"] if t["name"] == pod][0]


class TestUcxLib(NixlMixin, unittest.TestCase):
    def setUp(self):
        if not shutil.which("ucx_info", path="/usr/bin"):
            self.skipTest("no /usr/bin/ucx_info here: tools/deps.sh installs ucx-utils (libucx0)")

    def node(self, c, pods):
        args = ["node", "-n", "dynamo", "-o", "json"]
        for p in pods:
            args += ["--pod", "%s-%s" % (SCN, p)]
        rc, out, err, _ = c.run_plugin(self.VERSION, args)
        return rc, harness.json_doc(self, rc, out, err)

    def test_the_library_the_worker_maps_agrees_with_ucx_info_and_fails_decisively(self):
        with harness.FakeCluster(SCN) as c:
            rc, doc = self.node(c, ["info-decode", "maps-prefill"])
            info, lib = SCN + "-info-decode", SCN + "-maps-prefill"
            t = checks_of(doc, lib)["transports"]
            self.assertEqual((t["layer"], t["status"]), ("ucx", "fail"), t)
            self.assertIn("UCX would fall back to TCP: libucp lists self, tcp, sysv, posix, cma, no rc/dc", t["detail"])
            self.assertTrue(t["detail"].endswith(
                " (from libucp via python3 ctypes: /lib/x86_64-linux-gnu/libucp.so.0, mapped by pid 57 python3)"), t)
            ref = checks_of(doc, info)["transports"]
            self.assertIn("ucx_info -d lists self, tcp, sysv, posix, cma, no rc/dc", ref["detail"])
            # The same facts from both sources: transports with their devices, the version.
            self.assertEqual(facts_of(doc, lib)["ucx"]["transports"], facts_of(doc, info)["ucx"]["transports"])
            self.assertEqual((facts_of(doc, lib)["ucx"]["version"], facts_of(doc, info)["ucx"]["version"]),
                             ("1.13.1", "1.13.1"))
            self.assertEqual(facts_of(doc, info)["ucx"]["source"], "ucx_info")
            self.assertTrue(facts_of(doc, lib)["ucx"]["source"].startswith("libucp via python3 ctypes: "))
            self.assertEqual((doc["verdict"]["status"], rc), ("blocked", 2))
            self.assertEqual(harness.only_reads(c.request_log()), [])
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_only_the_nixl_wheels_ucx_answers_from_its_libs_directory(self):
        with harness.FakeCluster(SCN) as c:
            rc, doc = self.node(c, ["wheel-prefill"])
            t = checks_of(doc, SCN + "-wheel-prefill")["transports"]
            self.assertEqual(t["status"], "fail", t)
            # Two copies mapped (HPC-X's and the wheel's, ai-dynamo/nixl #1668): NIXL's is asked.
            self.assertIn("no rc/dc (from libucp via python3 ctypes: /usr/local/lib/python3.11/dist-packages/"
                          "nixl_cu13.libs/libucp-e76cb9e6.so.0.0.0, mapped by pid 57 python3)", t["detail"])
            modules = facts_of(doc, SCN + "-wheel-prefill")["ucx"]["modules"]
            self.assertEqual(modules["dir"], "/usr/local/lib/python3.11/dist-packages/nixl_cu13.libs/ucx")
            self.assertEqual(modules["loaded"], ["libuct_cma.so.0.0.0", "libuct_ib.so.0.0.0", "libuct_rdmacm.so.0.0.0"])
            v = checks_of(doc, SCN + "-wheel-prefill")["version"]
            self.assertEqual(v["status"], "warn", v)  # 1.13.1 is a known-trouble version
            self.assertTrue(v["detail"].startswith("UCX 1.13.1 < 1."), v)
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_no_python3_is_skipped_with_why(self):
        with harness.FakeCluster(SCN) as c:
            rc, doc = self.node(c, ["nopython-decode"])
            t = checks_of(doc, SCN + "-nopython-decode")["transports"]
            self.assertEqual(t["status"], "skipped", t)
            self.assertIn("ucx_info not in the image", t["detail"])
            self.assertIn("and no python3 to ask its UCX library: cannot see the transports UCX picks", t["detail"])
            self.assertNotEqual(doc["verdict"]["status"], "surface-ok")


class TestNixlBackend(NixlMixin, unittest.TestCase):
    PLAY = "nixl-python-play"

    def test_a_backend_that_cannot_be_created_fails_at_nixl_with_nixls_error(self):
        with harness.FakeCluster(self.PLAY) as c:
            rc, doc, err, _ = self.run_nixl(c, self.PLAY, [])
            bad = checks_of(doc, self.PLAY + "-backend-prefill")["UCX backend"]
            self.assertEqual((bad["layer"], bad["status"]), ("nixl", "fail"), bad)
            self.assertEqual(bad["detail"], "NIXL lists UCX but cannot create the backend (nixl._api in a fresh "
                                            "python3, no memory registered): nixl._bindings.nixlBackendError: "
                                            "NIXL_ERR_BACKEND")
            good = checks_of(doc, self.PLAY + "-ok-prefill")["UCX backend"]
            self.assertEqual(good["status"], "ok", good)
            self.assertEqual((doc["verdict"]["status"], doc["verdict"]["layer"], rc), ("blocked", "nixl", 2))
            self.assertEqual(harness.only_reads(c.request_log()), [])
            self.assertEqual(c.sandbox_processes_left(), [])



class TestSlowPython(unittest.TestCase):
    """python3 that never returns, under a short --timeout: the pod's deadline stops the probe in
    ucx_lib, the one slow fragment, which runs last: every cheap fact, the whole environment and
    the stack's versions among them, was read before it."""

    def test_the_stack_is_read_before_the_slow_fragment(self):
        with harness.FakeCluster("ucx-lib-slow") as c:
            rc, out, err, _ = c.run_plugin(harness.KUBECTL_VERSIONS[-1],
                                           ["nixl", "--deployment", "ucx-lib-slow", "-n", "dynamo",
                                            "--timeout", "4s", "-o", "json"], timeout=120)
            doc = harness.json_doc(self, rc, out, err)
            checks = checks_of(doc, "ucx-lib-slow-0-prefill")
            side = checks.get("side-channel-host")
            self.assertIsNotNone(side, sorted(checks))
            self.assertEqual((side["status"], side["layer"]), ("fail", "nixl"))
            self.assertTrue(side["detail"].endswith("(volcano-sh/kthena #1781)"), side["detail"])
            # the stop is said, and keeps what was read from being taken for the whole
            self.assertEqual((checks["exec"]["status"], checks["exec"]["detail"]),
                             ("skipped", "timed out after 4s in section ucx_lib: the facts read before it are "
                                         "judged, the rest is missing"))
            self.assertEqual(checks["install"]["status"], "skipped")
            self.assertEqual(doc["verdict"]["status"], "blocked")
            # through the proxy: the probe's request line fits (a space is '+', not %20)
            execs = [r["ua"] for r in c.request_log() if r["path"].endswith("/exec")]
            self.assertEqual(execs, ["kubectl-dynamo_icheck"])
            self.assertNotIn("kubectl proxy", err)
            self.assertEqual(c.sandbox_processes_left(grace=10.0), [])


if __name__ == "__main__":
    unittest.main()
