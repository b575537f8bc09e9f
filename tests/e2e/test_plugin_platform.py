"""`kubectl dynamo-icheck node` on platform faults: multi-node NVLink (IMEX channel, GPU fabric), AWS EFA,
PCIe link training and IOMMU, the KV worker's own memlock. Real kubectl against the fake API server.
Run: cd tests/e2e && ICHECK_PLUGIN=../../build/kubectl-dynamo_icheck python3 -m unittest -v test_plugin_platform
"""
import unittest

import harness

from harness import OK, WARN, FAIL, SKIP, VERDICT_RC  # noqa: E402

IB = {"ports": OK, "adapter rate": OK, "devices": OK, "verbs": OK, "memlock": OK, "peer-memory": OK, "ucx gpudirect": OK, "gdrcopy": OK,
      "topology": OK, "links": OK, "UCX_NET_DEVICES": OK, "transports": OK, "version": OK}
PCIE = dict(IB, **{"nic pcie": OK, "iommu": OK, "acs": SKIP})
MNNVL = dict(IB, **{"multi-node nvlink": OK, "UCX_NET_DEVICES": SKIP, "imex channel": OK, "gpu fabric": OK})
EFA = {"ports": OK, "nic pcie": OK, "devices": OK, "verbs": SKIP, "memlock": OK, "libfabric efa": OK,
       "peer-memory": OK, "gdrcopy": OK, "iommu": OK, "acs": SKIP, "topology": OK, "links": OK,
       "UCX_NET_DEVICES": SKIP, "transports": SKIP}

# scenario -> ({pod: {check: status}}, verdict, verdict layer)
SCENARIOS = {
    # The known-trouble row ucx-tls-without-rdma-on-rdma-fabric: UCX_TLS=cuda_copy,cuda_ipc,tcp
    # beside InfiniBand ports.
    "node-mnnvl": ({
        "node-mnnvl-0-prefill-ok": dict(MNNVL, **{"ucx-tls": WARN}),
        "node-mnnvl-0-decode-noimex": dict(MNNVL, **{"imex channel": FAIL, "ucx-tls": WARN}),
        "node-mnnvl-0-decode-fabric": dict(MNNVL, **{"gpu fabric": FAIL, "ucx-tls": WARN})}, "blocked", "nvlink"),
    # The known-trouble row ucx-nixl-ucx-backend-on-efa: NIXL's default UCX backend on EFA.
    "node-efa": ({
        "node-efa-0-prefill-ok": dict(EFA, **{"nixl-backend": WARN}),
        "node-efa-0-decode-nofi": dict(EFA, **{"libfabric efa": FAIL, "nixl-backend": WARN})},
        "blocked", "rdma-access"),
    "node-pcie": ({
        "node-pcie-0-prefill-ok": PCIE,
        "node-pcie-0-decode-x8": dict(PCIE, **{"nic pcie": WARN, "iommu": WARN})}, "unconfirmed", "fabric"),
    "node-kv-worker": ({
        "node-kv-worker-0-prefill-raised": IB,
        "node-kv-worker-0-decode-low": dict(IB, memlock=FAIL)}, "blocked", "rdma-access"),
    "node-kv-workers": ({
        "node-kv-workers-0-prefill-raised": IB,
        "node-kv-workers-0-decode-forked": dict(IB, memlock=FAIL)}, "blocked", "rdma-access"),
}

# Each failure names its cause and the next step (substrings of detail / next).
DETAILS = {
    ("node-mnnvl-0-decode-noimex", "imex channel"): ("no /dev/nvidia-caps-imex-channels", "resourceClaims"),
    ("node-mnnvl-0-decode-fabric", "gpu fabric"): ("Status Insufficient Resources", "nvidia-smi -q"),
    ("node-mnnvl-0-prefill-ok", "gpu fabric"): ("cluster 6a130f54-faaa-4b8f-847f-be44ab70f917 clique 32766", ""),
    ("node-efa-0-prefill-ok", "ports"): ("100 Gb/s AWS EFA", ""),
    ("node-efa-0-prefill-ok", "peer-memory"): ("efa_nv_peermem loaded", ""),
    ("node-efa-0-decode-nofi", "libfabric efa"): ("fi_getinfo: -61 (No data available)", "vpc.amazonaws.com/efa"),
    ("node-pcie-0-decode-x8", "nic pcie"): ("mlx5_0 x8 32 GT/s of x16 32 GT/s", "LnkSta"),
    ("node-pcie-0-decode-x8", "iommu"): ("mlx5_0 (DMA-FQ); kernel command line: intel_iommu=on", "iommu=pt"),
    ("node-kv-worker-0-prefill-raised", "memlock"): ("worker pid 57 (dynamo.vllm): memlock unlimited (the exec shell "
                                                     "has 64 KiB: the worker raised its own limit)", ""),
    ("node-kv-worker-0-decode-low", "memlock"): ("worker pid 57 (dynamo.vllm): memlock 64 KiB", "IPC_LOCK"),
    ("node-kv-workers-0-decode-forked", "memlock"): (
        "worker pid 58 (dynamo.vllm): memlock 64 KiB and no effective CAP_IPC_LOCK", "IPC_LOCK"),
}


def statuses(doc):
    return {t["name"]: {c["name"]: c["status"] for c in t["checks"]} for t in doc["targets"]}


class TestPlatformScenarios(unittest.TestCase):
    def check_scenario(self, name, version="1.32"):
        pods, verdict, layer = SCENARIOS[name]
        with harness.FakeCluster(name) as c:
            rc, out, err, _ = c.run_plugin(version, ["node", "--deployment", name, "-n", "dynamo", "-o", "json"],
                                           timeout=120)
            doc = harness.json_doc(self, rc, out, err)
            got = statuses(doc)
            self.assertEqual(set(got), set(pods))
            for pod, want in pods.items():
                self.assertEqual(got[pod], want, pod)
            checks = {(t["name"], ch["name"]): ch for t in doc["targets"] for ch in t["checks"]}
            for (pod, check), (detail, nxt) in DETAILS.items():
                if pod in pods:
                    self.assertIn(detail, checks[(pod, check)]["detail"])
                    self.assertIn(nxt, checks[(pod, check)].get("next", ""))
            self.assertEqual(doc["verdict"]["status"], verdict, doc["verdict"])
            self.assertEqual(doc["verdict"].get("layer"), layer, doc["verdict"])
            self.assertEqual(rc, VERDICT_RC[verdict], err)
            self.assertEqual(harness.only_reads(c.request_log()), [])

    def test_multi_node_nvlink(self):
        self.check_scenario("node-mnnvl")

    def test_aws_efa(self):
        self.check_scenario("node-efa", "1.30")

    def test_pcie_links_and_iommu(self):
        self.check_scenario("node-pcie", "1.31")

    def test_kv_worker_limits(self):
        self.check_scenario("node-kv-worker")

    def test_every_kv_worker_process(self):
        self.check_scenario("node-kv-workers")


if __name__ == "__main__":
    unittest.main()
