"""Corpus reports read on the node (failure-reports-turn5 #3, #2, #12): each row of
src/knowledge/data/trouble_node_facts.yaml fires on the pod that carries its observable, read by
the real probe (the kernel's /proc/config.gz, the RDMA devices the pod can open, each port's
default P_Key and each device's node type), and stays quiet on its healthy twin. One run of
`node` over scenario corpus-node. #21 (pplx-garden #3) is an older row, proven here on a pod too."""
import unittest

import harness

VERSION = "1.32"
SCENARIO = "corpus-node"


def named(suffix):
    return SCENARIO + "-0-" + suffix


class TestCorpusNode(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with harness.FakeCluster(SCENARIO) as c:
            cls.rc, out, err, _ = c.run_plugin(VERSION, ["node", "-n", "dynamo", "-o", "json"], timeout=180)
            cls.err = err
            cls.doc = harness.json_doc(cls, cls.rc, out, err)
        cls.by_target = {}
        for t in cls.doc["targets"]:
            for ch in t["checks"]:
                cls.by_target.setdefault((t["name"], ch["name"]), []).append(ch)

    def hits(self, pod, name, source):
        found = self.by_target.get((named(pod), name), [])
        return [c for c in found if c["detail"].endswith("(" + source + ")")]

    def one(self, pod, name, status, layer, source, starts):
        hits = self.hits(pod, name, source)
        self.assertEqual(len(hits), 1, self.by_target.get((named(pod), name), []))
        self.assertEqual((hits[0]["status"], hits[0]["layer"]), (status, layer))
        self.assertTrue(hits[0]["detail"].startswith(starts), hits[0]["detail"])
        return hits[0]

    def none(self, pod, name, source):
        self.assertEqual(self.hits(pod, name, source), [])

    def test_every_pod_was_probed(self):
        names = {t["name"] for t in self.doc["targets"]}
        for pod in ("p2pdma-unset", "p2pdma-set", "dmabuf-kernel-5-4", "efa-hostpath", "efa-plugin-only", "mooncake-limited-pkey",
                    "mooncake-unspecified-device", "mooncake-usable-devices"):
            self.assertIn(named(pod), names)
        self.assertEqual(self.doc["verdict"]["status"], "blocked")
        self.assertEqual(self.rc, 2, self.err)

    def test_no_peer_memory_and_no_p2pdma_in_the_kernel_config(self):
        self.one("p2pdma-unset", "gpudirect-dmabuf", "fail", "gpudirect", "siderolabs/talos #12021",
                 "no peer-memory module is loaded and the kernel is built without CONFIG_PCI_P2PDMA")
        self.none("p2pdma-set", "gpudirect-dmabuf", "siderolabs/talos #12021")

    def test_dmabuf_on_a_kernel_before_5_12(self):
        # #21: the row was there (trouble_operators.yaml); the kernel is read from
        # /proc/sys/kernel/osrelease (not uname, which a fake pod's chroot does not change).
        self.one("dmabuf-kernel-5-4", "gpudirect-dmabuf", "fail", "gpudirect", "perplexityai/pplx-garden #3",
                 "GPUDirect RDMA through dma-buf on kernel 5.4.0-182-generic")
        self.none("p2pdma-set", "gpudirect-dmabuf", "perplexityai/pplx-garden #3")
        self.none("dmabuf-kernel-5-4", "gpudirect-dmabuf", "siderolabs/talos #12021")

    def test_efa_beside_an_mlx5_the_pod_can_open(self):
        self.one("efa-hostpath", "efa-devices", "fail", "rdma-access", "aws-samples/aws-do-eks #63",
                 "the pod can open RDMA devices that are not EFA beside its EFA devices")
        self.none("efa-plugin-only", "efa-devices", "aws-samples/aws-do-eks #63")

    def test_mooncake_without_a_device_list_takes_a_limited_pkey_hca(self):
        self.one("mooncake-limited-pkey", "mooncake-devices", "warn", "fabric", "vllm-project/vllm #44919",
                 "Mooncake has no device list, so it takes every RDMA device of the pod, and 1 of them has only "
                 "limited membership")
        self.none("mooncake-usable-devices", "mooncake-devices", "vllm-project/vllm #44919")

    def test_mooncake_without_a_device_list_takes_a_device_that_is_no_ca(self):
        self.one("mooncake-unspecified-device", "mooncake-devices", "warn", "fabric", "vllm-project/vllm #44919",
                 "Mooncake has no device list, so it takes every RDMA device of the pod, and 1 of them is not a "
                 "usable channel adapter")
        self.assertEqual(self.hits("mooncake-unspecified-device", "mooncake-devices", "vllm-project/vllm #44919")[0]
                         ["detail"].count("limited"), 0)


if __name__ == "__main__":
    unittest.main()
