"""False blocks from history and from a user's words (issue 40): an event last seen before the
running container started is history, not a reason to block a Running, Ready pod (its Pending
twin with the same event now is still judged); a request log that echoes a prompt holding a
signature's words is the user's text (its twin, where the engine printed the line, still fails)."""
import unittest

import harness

VERSION = "1.32"
SCENARIO = "history-and-echo"


class TestHistoryAndEcho(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # `node` shows the scheduling event's layer (rdma-access), `nixl` the NIXL line's.
        cls.targets = {}
        with harness.FakeCluster(SCENARIO) as c:
            for mode in ("node", "nixl"):
                rc, out, err, _ = c.run_plugin(VERSION, [mode, "-n", "dynamo", "-o", "json"], timeout=120)
                for t in harness.json_doc(cls, rc, out, err)["targets"]:
                    cls.targets.setdefault(t["name"], {"checks": [], "facts": t["facts"]})
                    cls.targets[t["name"]]["checks"] += t["checks"]

    def rows(self, pod):
        return {c["row"]: c for c in self.targets[pod]["checks"] if "row" in c}

    def test_a_scheduling_failure_before_the_start_is_history(self):
        self.assertNotIn("k8s-sriov-rdma-resource-insufficient", self.rows("scheduled-long-ago"))
        self.assertEqual(self.targets["scheduled-long-ago"]["facts"]["logs"]["eventsBeforeStart"], 1)

    def test_the_same_event_on_a_pending_pod_is_judged(self):
        c = self.rows("pending-now").get("k8s-sriov-rdma-resource-insufficient")
        self.assertIsNotNone(c, self.targets["pending-now"]["checks"])
        self.assertEqual(c["layer"], "rdma-access")

    def test_a_prompt_that_quotes_a_signature_is_not_a_line(self):
        self.assertEqual(self.rows("prompt-echo"), {})

    def test_the_engine_s_own_line_still_fails(self):
        c = self.rows("engine-says-it").get("vllm-nixl-not-available")
        self.assertIsNotNone(c, self.targets["engine-says-it"]["checks"])
        self.assertEqual((c["status"], c["layer"]), ("fail", "nixl"))


if __name__ == "__main__":
    unittest.main()
