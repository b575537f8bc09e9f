"""Known trouble as data on running pods (issue 28): the rows of src/knowledge/data/ applied to
the facts the probe reads (the whole environment, the wheels' versions, the pod's networking),
each hit in its row's layer with its first source, and the stack-versions finding for wheels
that disagree."""
import os
import tempfile
import unittest

import harness

VERSION = "1.32"
SCENARIO = "known-trouble-stack"
PREFILL, DECODE = SCENARIO + "-0-prefill", SCENARIO + "-0-decode"
# A real vLLM disagg recipe (VllmPrefillWorker, VllmDecodeWorker), renamed to the pods' DGD for
# `env --live`: the recipe sets no side-channel host, the running prefill pod does.
RECIPE = os.path.join(os.path.dirname(harness.E2E_DIR), "recipes", "qwen3-32b-fp8", "vllm", "disagg",
                      "deploy.yaml")


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
            with tempfile.TemporaryDirectory() as tmp:
                manifest = os.path.join(tmp, "deploy.yaml")
                with open(RECIPE) as f, open(manifest, "w") as to:
                    to.write(f.read().replace("name: qwen3-32b-fp8-vllm-disagg", "name: " + SCENARIO))
                cls.live_rc, out, err, _ = c.run_plugin(
                    VERSION, ["env", manifest, "--live", "-n", "dynamo", "-o", "json"], timeout=120)
                cls.live_err = err
                cls.live = harness.json_doc(cls, cls.live_rc, out, err)

    def test_env_live_judges_the_running_pods_through_the_rows(self):
        live = checks(self.live)
        c = live[(PREFILL, "side-channel-host")]
        self.assertEqual((c["status"], c["layer"]), ("fail", "nixl"))
        self.assertTrue(c["detail"].startswith("VLLM_NIXL_SIDE_CHANNEL_HOST=0.0.0.0:"), c["detail"])
        self.assertTrue(c["detail"].endswith("(volcano-sh/kthena #1781)"))
        self.assertNotIn((DECODE, "side-channel-host"), live)  # hostNetwork, host unset: healthy
        # The recipe itself sets neither: only the pods carry it.
        manifest = [t for t in self.live["targets"] if t["kind"] != "pod"]
        self.assertEqual(len(manifest), 1)
        self.assertFalse([c for c in manifest[0]["checks"] if c["name"] == "side-channel-host"])
        self.assertEqual(self.live["verdict"]["status"], "blocked")
        self.assertEqual(self.live_rc, 2, self.live_err)

    def test_side_channel_host_that_names_the_pod_itself_fails(self):
        c = self.checks[(PREFILL, "side-channel-host")]
        self.assertEqual((c["status"], c["layer"]), ("fail", "nixl"))
        self.assertEqual(c["detail"],
                         "VLLM_NIXL_SIDE_CHANNEL_HOST=0.0.0.0: vLLM also advertises this address to the peer, so "
                         "decode dials itself, gets its own engine id back and the handshake fails "
                         "(volcano-sh/kthena #1781)")
        self.assertEqual(self.doc["verdict"]["status"], "blocked")
        self.assertEqual(self.rc, 2, self.err)

    def test_host_network_without_side_channel_host_is_no_finding(self):
        # vLLM's side-channel host defaults to "localhost" and Dynamo sets it to the node's address
        # on hostNetwork pods; the address choice blamed in ray-project/ray #60817 is Ray Serve's,
        # so a hostNetwork pod without VLLM_NIXL_SIDE_CHANNEL_HOST is healthy here.
        self.assertNotIn((DECODE, "side-channel-host"), self.checks)

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


MORE = "known-trouble-more"


def named(suffix):
    return MORE + "-0-" + suffix


class TestKnownTroubleMore(unittest.TestCase):
    """The rest of issue 28's misses, each failing in its layer beside a healthy twin where it does
    not fire: rows over one pod on aggregated workers, rows over a prefill/decode pair on pods
    that share a node (or a RoCE fabric). One run of `node` over the namespace, where a decode pod
    of another DGD shares the B200 node."""

    @classmethod
    def setUpClass(cls):
        with harness.FakeCluster(MORE) as c:
            cls.rc, out, err, _ = c.run_plugin(
                VERSION, ["node", "-n", "dynamo", "-o", "json"], timeout=120)
            cls.log = c.request_log()
            cls.err = err
            cls.doc = harness.json_doc(cls, cls.rc, out, err)
            cls.checks = checks(cls.doc)
            cls.by_target = {}
            for t in cls.doc["targets"]:
                for c in t["checks"]:
                    cls.by_target.setdefault((t["name"], c["name"]), []).append(c)

    def one(self, pod, name, status, layer, source, starts=None):
        found = self.by_target.get((named(pod), name), [])
        hits = [c for c in found if c["detail"].endswith("(" + source + ")")]
        self.assertEqual(len(hits), 1, found)
        c = hits[0]
        self.assertEqual((c["status"], c["layer"]), (status, layer))
        if starts:
            self.assertTrue(c["detail"].startswith(starts), c["detail"])
        return c

    def none(self, pod, name, source=None):
        found = self.by_target.get((named(pod), name), [])
        if source:
            found = [c for c in found if c["detail"].endswith("(" + source + ")")]
        self.assertEqual(found, [])

    def test_verdict_is_not_green(self):
        self.assertEqual(self.doc["verdict"]["status"], "blocked")
        self.assertEqual(self.rc, 2, self.err)

    def test_gb200_nvlink_domain_without_fabric_memory(self):
        self.one("gb200-libfabric", "mnnvl-kv-memory", "warn", "nvlink", "vllm-project/vllm #33540",
                 starts="NVIDIA GB200 in a multi-node NVLink domain")
        self.none("gb200-fabric-memory", "mnnvl-kv-memory")

    def test_libfabric_2_4_registering_cuda_memory_on_gb200(self):
        self.one("gb200-libfabric", "kv-memory-registration", "fail", "gpudirect",
                 "ofiwg/libfabric #12019", starts="libfabric 2.4.0amzn1.0 on NVIDIA GB200:")
        self.none("gb200-fabric-memory", "kv-memory-registration")  # NIXL on UCX there

    def test_nccl_2_21_beside_nvidia_peermem(self):
        self.one("nccl-2-21", "peer-memory", "warn", "gpudirect", "NVIDIA/nccl #1676",
                 starts="NCCL 2.21.5 looks only for nv_peer_mem")
        self.assertEqual([c["status"] for c in self.by_target[(named("nccl-2-23"), "peer-memory")]],
                         ["ok"])

    def test_fewer_nics_than_gpus_without_ucx_net_devices(self):
        self.one("two-nics", "nic-per-gpu", "warn", "ucx", "openucx/ucx #11259",
                 starts="8 GPUs on 2 RDMA ports with UCX_NET_DEVICES unset")
        self.none("two-nics-pinned", "nic-per-gpu")

    def test_trtllm_same_b200_node_ucx_before_1_22_and_ucx_tls_unset(self):
        for me, peer in (("prefill-b200", "decode-b200"), ("decode-b200", "prefill-b200")):
            c = self.one(me, "same-node-kv", "warn", "ucx", "NVIDIA/TensorRT-LLM #18347",
                         starts="with " + named(peer) + ": TRT-LLM's VMM KV pools")
            self.assertIn("UCX 1.19.0", c["detail"])
            self.one(me, "same-node-kv", "warn", "ucx", "NVIDIA/TensorRT-LLM #17300",
                     starts="with " + named(peer) + ": TRT-LLM prefill and decode on one NVIDIA B200 node with UCX_TLS unset")
        # UCX 1.22 and UCX_TLS set on the same node; the first pair's pods with these, apart.
        for pod in ("prefill-b200-ok", "decode-b200-ok"):
            self.none(pod, "same-node-kv")
        # Two rows with this DGD's decode pod; none with the other DGD's on the same node.
        self.assertEqual(len(self.by_target[(named("prefill-b200"), "same-node-kv")]), 2)
        other = [c for t in self.doc["targets"] if t["name"] == "known-trouble-other-0-decode-b200"
                 for c in t["checks"] if c["name"] == "same-node-kv"]
        self.assertEqual(other, [])

    def test_nixl_cuda_ipc_get_on_gpus_without_nvlink(self):
        self.one("prefill-pcie", "same-node-kv", "warn", "nixl", "ai-dynamo/nixl #1097",
                 starts="with " + named("decode-pcie") + ": NIXL 0.10.0 on GPUs without NVLink")
        self.one("decode-pcie", "same-node-kv", "warn", "nixl", "ai-dynamo/nixl #1097")
        self.none("prefill-nvlink", "same-node-kv")
        self.none("decode-nvlink", "same-node-kv")

    def test_pinned_gid_index_over_a_sparse_gid_table(self):
        self.one("prefill-roce", "roce-gid-index", "warn", "ucx", "NVIDIA/nccl #1587",
                 starts="with " + named("decode-roce-sparse") + ": the RoCE v2 GID sits at a different index")
        self.one("decode-roce-sparse", "roce-gid-index", "warn", "ucx", "NVIDIA/nccl #1587")
        self.none("decode-roce", "roce-gid-index")  # its v2 entry at 3, as the prefill's
        # NCCL's twin row: the P2pNcclConnector prefill pins NCCL_IB_GID_INDEX.
        self.one("prefill-roce-nccl", "roce-gid-index", "warn", "rdma-access", "NVIDIA/nccl #718",
                 starts="with " + named("decode-roce-sparse") + ":")
        self.one("decode-roce-sparse", "roce-gid-index", "warn", "rdma-access", "NVIDIA/nccl #718")
        self.assertEqual([c["layer"] for c in self.by_target[(named("prefill-roce-nccl"), "roce-gid-index")]],
                         ["rdma-access"])  # not the UCX row: that pod pins no UCX_IB_GID_INDEX


    def test_node_objects_read_once_per_node_where_readable(self):
        facts = {t["name"]: t.get("facts", {}) for t in self.doc["targets"]}
        self.assertEqual(facts[named("gb200-libfabric")]["kubeNode"],
                         {"name": "gb200-tray-1", "internalIP": "10.62.128.1", "cloud": "aws"})
        self.assertEqual(facts[named("decode-nvlink")]["kubeNode"],
                         {"name": "h100-node-1", "internalIP": "10.128.0.41", "cloud": "gcp"})
        self.assertEqual(facts[named("prefill-roce")]["kubeNode"]["cloud"], "azure")  # by its labels
        self.assertNotIn("kubeNode", facts[named("decode-roce")])  # 404: unknown, no error
        self.assertEqual(self.doc["errors"], [])
        gets = [r["path"] for r in self.log if r["path"].startswith("/api/v1/nodes/")]
        nodes = {t["node"] for t in self.doc["targets"]}
        self.assertEqual(sorted(gets), sorted("/api/v1/nodes/" + n for n in nodes))
        self.assertEqual(harness.only_reads(self.log), [])


if __name__ == "__main__":
    unittest.main()
