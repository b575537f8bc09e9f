"""Every `next` runnable as printed, in pod mode: no <node>/<pod>/<namespace> placeholder where the
value is known, no in-pod tool (nvidia-smi, ucx_info, ibv_devinfo, ibstat) printed without the
kubectl exec that runs it in the pod, no --transfer suggestion without pods, and a printed next
run through sh and the real kubectl reaches the pod."""
import re
import subprocess
import unittest

import harness

# Between them: kubectl debug, bare tools, a pipe, prose after commands, the NIXL test's advice
# (the rewriting itself is unit-tested on every kind of next in tests/unit/check).
SCENARIOS = [("node", "node-no-gpu-driver"), ("node", "node-toolless"), ("node", "node-ucx-tcp-only"),
             ("nixl", "nixl-missing")]
TOOL = re.compile(r"(^|[\s(])(nvidia-smi|ucx_info|ibv_devinfo|ibstat)\b")
PLACEHOLDER = re.compile(r"<(node|pod|worker-pod|namespace)>")


def not_runnable(next_text):
    """Why a pod-mode next step is not runnable as printed, or None."""
    if PLACEHOLDER.search(next_text):
        return "placeholder of a known value"
    commands = next_text.split("  #")[0]
    for segment in commands.split("; "):
        if TOOL.search(segment) and not segment.startswith(("kubectl ", "on node ", "run ucx_info")):
            return "in-pod tool without kubectl exec: " + segment
    return None


def nexts(doc):
    return [(t["name"], ch["name"], ch["next"]) for t in doc["targets"] if t["kind"] == "pod"
            for ch in t["checks"] if ch.get("next")]


class TestNextRunnable(unittest.TestCase):
    def run_printed(self, c, doc):
        """The ucx gpudirect next as printed, through sh and the real kubectl: it reaches the pod."""
        step = [n for _, check, n in nexts(doc) if check == "ucx gpudirect"][0]
        self.assertTrue(step.startswith("kubectl --context=fake exec "), step)
        execs_before = len([q for q in c.request_log() if q["path"].endswith("/exec")])
        r = subprocess.run(["sh", "-c", step], env=c.env("1.32"), cwd=c.dir, capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"^with-cuda", r.stdout)
        execs = [q for q in c.request_log() if q["path"].endswith("/exec")]
        self.assertEqual(len(execs), execs_before + 1)

    def test_no_placeholder_and_no_bare_tool_in_pod_mode(self):
        checked = 0
        for mode, scenario in SCENARIOS:
            with self.subTest(scenario=scenario), harness.FakeCluster(scenario) as c:
                rc, out, err, _ = c.run_plugin("1.32", [mode, "-o", "json"])
                doc = harness.json_doc(self, rc, out, err)
                for pod, check, text in nexts(doc):
                    self.assertIsNone(not_runnable(text), (pod, check, text))
                    checked += 1
                if scenario == "node-ucx-tcp-only":
                    self.run_printed(c, doc)
        self.assertGreater(checked, 8)

    def test_no_transfer_suggestion_without_pods(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            rc, out, err, _ = c.run_plugin("1.32", ["node", "--deployment", "no-such-dgd", "-o", "json"])
            doc = harness.json_doc(self, rc, out, err)
            self.assertEqual(doc["targets"], [])
            self.assertNotIn("--transfer", " ".join(doc["verdict"]["limitations"] + doc["verdict"]["next"]))
            rc, out, err, _ = c.run_plugin("1.32", ["node", "--deployment", "llama-70b-disagg", "-o", "json"])
            doc = harness.json_doc(self, rc, out, err)
            self.assertIn("no transfer was exercised: kubectl dynamo-icheck nixl --transfer "
                          "--deployment llama-70b-disagg", doc["verdict"]["limitations"])


class TestNothingMatched(unittest.TestCase):
    """No worker pod where the user looked: the verdict says where workers do run."""

    def test_empty_namespace_and_unknown_deployment_point_somewhere(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            v = harness.KUBECTL_VERSIONS[-1]
            # 200 columns: the step on one line (at 100 it wraps under its label)
            rc, out, err, _ = c.run_plugin(v, ["node", "-n", "default"], env={"COLUMNS": "200"})
            self.assertEqual(rc, 3, err)
            self.assertIn("\n  next   Dynamo worker pods run in namespace dynamo (llama-70b-disagg, "
                          "other-dgd), staging (llama-70b-disagg): try -n dynamo, or -A\n", out)
            rc, out, err, _ = c.run_plugin(v, ["node", "--deployment", "nosuch", "-o", "json"])
            doc = harness.json_doc(self, rc, out, err)
            self.assertEqual(rc, 3)
            self.assertIn("the deployments with worker pods in namespace dynamo: llama-70b-disagg, other-dgd",
                          doc["verdict"]["next"])
            rc, out, err, _ = c.run_plugin(v, ["nixl", "-n", "staging", "--deployment", "other-dgd"])
            self.assertIn("next   deployment other-dgd has worker pods in namespace dynamo: try -n dynamo, "
                          "or -A\n", out)
            # what the user asked for, found: no hint
            rc, out, err, _ = c.run_plugin(v, ["node", "--deployment", "llama-70b-disagg"])
            self.assertNotIn("worker pods in namespace", out)
            self.assertEqual(harness.only_reads(c.request_log()), [])


class TestNextFitsTheResult(unittest.TestCase):
    def test_nixl_missing_suggests_no_transfer_commands(self):
        with harness.FakeCluster("nixl-missing") as c:
            rc, out, err, _ = c.run_plugin(harness.KUBECTL_VERSIONS[-1],
                                           ["nixl", "--deployment", "nixl-missing", "-o", "json"])
            doc = harness.json_doc(self, rc, out, err)
            self.assertEqual((doc["verdict"]["status"], doc["verdict"]["layer"]), ("blocked", "nixl"))
            self.assertEqual([n for n in doc["verdict"]["next"] if "nixlbench" in n or " debug " in n], [])
            self.assertTrue(any(l.startswith("no transfer test suggested for ") for l in doc["verdict"]["limitations"]))

    def test_a_slow_transfer_points_at_the_path(self):
        with harness.FakeCluster("nixl-bench-slow") as c:
            rc, out, err, _ = c.run_plugin(harness.KUBECTL_VERSIONS[-1],
                                           ["nixl", "--deployment", "nixl-bench-slow", "--transfer", "-o", "json"])
            doc = harness.json_doc(self, rc, out, err)
            steps = [ch["next"] for t in doc["targets"] for ch in t["checks"] if ch["name"] == "transfer"]
            self.assertTrue(steps)
            for step in steps:  # it finished, slowly: no "see where the test stops"
                self.assertNotIn("by hand", step)
                self.assertIn("compare the pair's ports", step)
                self.assertIn("kubectl dynamo-icheck node -o wide --pod nixl-bench-slow-0-prefill "
                              "--pod nixl-bench-slow-0-decode", step)


if __name__ == "__main__":
    unittest.main()
