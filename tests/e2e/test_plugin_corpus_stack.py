"""The graded corpus's failure reports (turn 5) whose observable is in the image, read by the stack
probe on pods: each report's row fires on its failing pod, in its layer and with its status and
first source, and not on the healthy twin that differs only in that observable. One run of
`nixl` over the scenario for the rows; the NVLink fabric (a node check, not a row) from one run of
`node` over the same pods."""
import unittest

import harness

VERSION = "1.32"
SCENARIO = "corpus-stack"

# (failing pod, healthy twin, check, status, layer, first source)
REPORTS = [
    ("cu13-modules", "cu13-modules-dir", "known-issue", "fail", "nixl", "ai-dynamo/nixl #1628"),
    ("three-nixl", "three-nixl-own", "nixl-copies", "fail", "nixl", "ai-dynamo/dynamo #6671"),
    ("ucx-no-mt", "ucx-mt", "ucx-build", "fail", "ucx", "ai-dynamo/nixl #96"),
    ("gga", "gga-excluded", "ucx-tls", "warn", "ucx", "vllm-project/aibrix #1436"),
    ("rcache", "rcache-bounded", "ucx-rcache", "warn", "ucx", "vllm-project/vllm #32181"),
]


def pod(suffix):
    return SCENARIO + "-0-" + suffix


class TestCorpusStackOnPods(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with harness.FakeCluster(SCENARIO) as c:
            cls.rc, out, err, _ = c.run_plugin(
                VERSION, ["nixl", "--deployment", SCENARIO, "-n", "dynamo", "-o", "json"], timeout=180)
            cls.err = err
            cls.doc = harness.json_doc(cls, cls.rc, out, err)
            cls.node_rc, out, err, _ = c.run_plugin(
                VERSION, ["node", "--deployment", SCENARIO, "-n", "dynamo", "-o", "json"], timeout=180)
            cls.node_err = err
            cls.node = harness.json_doc(cls, cls.node_rc, out, err)
            cls.log = c.request_log()
        cls.by_target = {}
        for t in cls.doc["targets"]:
            for c in t["checks"]:
                cls.by_target.setdefault((t["name"], c["name"]), []).append(c)

    def hits(self, suffix, check, source):
        return [c for c in self.by_target.get((pod(suffix), check), [])
                if c["detail"].endswith("(" + source + ")")]

    def test_each_report_fires_on_its_pod_and_not_on_its_twin(self):
        for failing, healthy, check, status, layer, source in REPORTS:
            with self.subTest(report=source):
                hits = self.hits(failing, check, source)
                self.assertEqual(len(hits), 1, self.by_target.get((pod(failing), check)))
                self.assertEqual((hits[0]["status"], hits[0]["layer"]), (status, layer), hits[0]["detail"])
                self.assertEqual(self.hits(healthy, check, source), [])
                # and on no other pod of the scenario
                others = [t["name"] for t in self.doc["targets"]
                          if t["name"] != pod(failing) and any(
                              c["detail"].endswith("(" + source + ")") for c in t["checks"])]
                self.assertEqual(others, [])

    def test_details_name_what_was_read(self):
        three = self.hits("three-nixl", "nixl-copies", "ai-dynamo/dynamo #6671")[0]["detail"]
        self.assertTrue(three.startswith(
            "3 libnixl copies in the image and LD_LIBRARY_PATH resolves "
            "/opt/nvidia/nvda_nixl/lib/x86_64-linux-gnu/libnixl.so first"), three)
        gga = self.hits("gga", "ucx-tls", "vllm-project/aibrix #1436")[0]["detail"]
        self.assertTrue(gga.startswith("UCX 1.19.0 lists the gga_mlx5 transport"), gga)
        rcache = self.hits("rcache", "ucx-rcache", "vllm-project/vllm #32181")[0]["detail"]
        self.assertTrue(rcache.startswith("NIXL 0.9.1 leaves UCX's registration cache unbounded"), rcache)

    def test_nvlink5_fabric_not_set_up_fails_the_nvlink_layer(self):
        fabric = {t["name"]: [c for c in t["checks"] if c["name"] == "gpu fabric"]
                  for t in self.node["targets"]}
        hits = fabric[pod("b200-fabric-in-progress")]
        self.assertEqual(len(hits), 1, hits)
        self.assertEqual((hits[0]["status"], hits[0]["layer"]), ("fail", "nvlink"))
        self.assertTrue(hits[0]["detail"].startswith(
            "GPU 00000000:1B:00.0: fabric State In Progress (registration not finished)"), hits[0]["detail"])
        self.assertIn("NVIDIA/gpu-driver-container #909", hits[0]["detail"])
        self.assertEqual(fabric[pod("b200-fabric-completed")], [])
        # Pods without an NVLink5 part do not ask nvidia-smi -q: nothing judged there.
        self.assertEqual(fabric[pod("ucx-mt")], [])

    def test_verdict_and_reads_only(self):
        self.assertEqual(self.doc["verdict"]["status"], "blocked")
        self.assertEqual(self.rc, harness.VERDICT_RC["blocked"], self.err)
        self.assertEqual(harness.only_reads(self.log), [])


if __name__ == "__main__":
    unittest.main()
