"""Known trouble as data on running pods (issue 28): the rows of src/knowledge/data/ applied to
the facts the probe reads (the whole environment, the wheels' versions, the pod's networking),
each hit in its row's layer with its first source, and the stack-versions finding for wheels
that disagree."""
import unittest

import harness

VERSION = "1.32"
SCENARIO = "known-trouble-stack"
PREFILL, DECODE = SCENARIO + "-0-prefill", SCENARIO + "-0-decode"


def checks(doc):
    """(target, check name) -> the check."""
    return {(t["name"], c["name"]): c for t in doc["targets"] for c in t["checks"]}


class TestKnownTroubleOnPods(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with harness.FakeCluster(SCENARIO) as c:
            cls.rc, out, err, _ = c.run_plugin(
                VERSION, ["nixl", "--deployment", SCENARIO, "-n", "dynamo", "-o", "json"], timeout=120)
            cls.err = err
            cls.doc = harness.json_doc(cls, cls.rc, out, err)
            cls.checks = checks(cls.doc)

    def test_side_channel_host_that_names_the_pod_itself_fails(self):
        c = self.checks[(PREFILL, "side-channel-host")]
        self.assertEqual((c["status"], c["layer"]), ("fail", "nixl"))
        self.assertEqual(c["detail"],
                         "VLLM_NIXL_SIDE_CHANNEL_HOST=0.0.0.0: vLLM also advertises this address to the peer, so "
                         "decode dials itself, gets its own engine id back and the handshake fails "
                         "(volcano-sh/kthena #1781)")
        self.assertEqual(self.doc["verdict"]["status"], "blocked")
        self.assertEqual(self.rc, 2, self.err)

    def test_host_network_without_side_channel_host_warns(self):
        c = self.checks[(DECODE, "side-channel-host")]
        self.assertEqual((c["status"], c["layer"]), ("warn", "nixl"))
        self.assertTrue(c["detail"].startswith("hostNetwork pod without VLLM_NIXL_SIDE_CHANNEL_HOST"))
        self.assertTrue(c["detail"].endswith("(ray-project/ray #60817)"))
        self.assertIn("status.hostIP", c["next"])

    def test_nixl_1_3_1_beside_nixl_cu12_1_3_0(self):
        known = self.checks[(PREFILL, "known-issue")]
        self.assertEqual(known["status"], "warn")
        self.assertTrue(known["detail"].startswith("NIXL 1.3.1: an agent created with telemetry off"))
        self.assertTrue(known["detail"].endswith("(ai-dynamo/dynamo #12952)"))
        versions = self.checks[(PREFILL, "stack-versions")]
        self.assertEqual(versions["status"], "warn")
        self.assertIn("nixl 1.3.1 beside nixl-cu12 1.3.0", versions["detail"])
        # The decode image has no wheel: neither row nor disagreement.
        self.assertNotIn((DECODE, "known-issue"), self.checks)
        self.assertNotIn((DECODE, "stack-versions"), self.checks)


if __name__ == "__main__":
    unittest.main()
