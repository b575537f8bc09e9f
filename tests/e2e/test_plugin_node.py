"""`kubectl dynamo-icheck node` against the fake API server, through the real kubectl 1.30-1.32.

Each scenario's pods have an exact expected status per check and an expected verdict and exit code.
Run: cd tests/e2e && ICHECK_PLUGIN=../../build/kubectl-dynamo_icheck python3 -m unittest -v test_plugin_node
"""
import time
import unittest

import harness

from harness import OK, WARN, FAIL, SKIP, VERDICT_RC  # noqa: E402

HEALTHY = {"ports": OK, "devices": OK, "verbs": OK, "memlock": OK, "peer-memory": OK, "ucx gpudirect": OK,
           "gdrcopy": OK, "topology": OK, "links": OK, "UCX_NET_DEVICES": OK, "transports": OK, "version": OK,
           "adapter rate": OK}


def changed(base, **over):
    out = dict(base)
    for k, v in over.items():
        k = {"peer__memory": "peer-memory", "nvidia__smi": "nvidia-smi"}.get(k, k.replace("__", " "))
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out


NO_UCX = dict(ucx__gpudirect=None, version=None, transports=SKIP)

# scenario -> (args, {pod: {check: status}}, verdict status, verdict layer or None)
SCENARIOS = {
    "node-roce": ({
        "node-roce-0-decode-a": changed(HEALTHY, roce__addressing=WARN, adapter__rate=None),
        "node-roce-0-decode-b": changed(HEALTHY, roce__addressing=OK, adapter__rate=None),
        "node-roce-0-prefill-ok": changed(HEALTHY, roce__addressing=WARN, adapter__rate=None)}, "surface-ok", None),
    "node-grace": ({
        "node-grace-0-decode-a": changed(HEALTHY, nic__affinity=OK),
        "node-grace-0-decode-b": changed(HEALTHY, nic__affinity=OK, UCX_NET_DEVICES=SKIP)}, "surface-ok", None),
    "node-allocated-hcas": ({
        "node-allocated-hcas-0-decode-a": changed(HEALTHY, UCX_NET_DEVICES=FAIL),
        "node-allocated-hcas-0-decode-b": HEALTHY}, "blocked", "ucx"),
    "node-rate-hdr": ({
        "node-rate-hdr-0-decode-a": changed(HEALTHY, adapter__rate=WARN)}, "unconfirmed", "fabric"),
    "node-port-down-linkup": ({
        "node-port-down-linkup-0-decode-a": changed(HEALTHY, **{"port mlx5_3:1": FAIL, "UCX_NET_DEVICES": FAIL})},
        "blocked", "fabric"),
    "node-roce-gids": ({
        "node-roce-gids-0-decode-a": changed(HEALTHY, adapter__rate=None, roce__gids=FAIL, roce__addressing=WARN),
        "node-roce-gids-0-decode-b": changed(HEALTHY, adapter__rate=None, roce__gids=OK, roce__addressing=WARN),
        "node-roce-gids-0-decode-c": changed(HEALTHY, adapter__rate=None, roce__gids=FAIL, roce__addressing=WARN),
        "node-roce-gids-0-prefill-ok": changed(HEALTHY, adapter__rate=None, roce__addressing=WARN)},
        "blocked", "rdma-access"),
    "node-no-uverbs": ({
        "node-no-uverbs-0-decode-a": changed(HEALTHY, devices=FAIL)}, "blocked", "rdma-access"),
    "node-memlock-64k": ({
        "node-memlock-64k-0-decode-a": changed(HEALTHY, memlock=FAIL)}, "blocked", "rdma-access"),
    "node-peermem-dmabuf": ({
        "node-peermem-dmabuf-0-decode-a": changed(HEALTHY, peer__memory=WARN, **NO_UCX)}, "unconfirmed", "gpudirect"),
    "node-peermem-none": ({
        "node-peermem-none-0-decode-a": changed(HEALTHY, peer__memory=FAIL, **NO_UCX),
        # The known-trouble row platform-dmabuf-kernel-too-old (open driver, kernel < 5.12) too.
        "node-peermem-none-0-decode-b": changed(HEALTHY, peer__memory=FAIL, **NO_UCX,
                                                **{"gpudirect-dmabuf": FAIL})}, "blocked", "gpudirect"),
    "node-port-init": ({
        # UCX is pinned to the INIT port on pod a: the port state (fabric) blocks, not nvlink.
        "node-port-init-0-decode-a": changed(HEALTHY, **{"port mlx5_3:1": FAIL, "UCX_NET_DEVICES": FAIL}),
        "node-port-init-0-decode-b": changed(HEALTHY, **{"port mlx5_3:1": WARN, "UCX_NET_DEVICES": SKIP})},
        "blocked", "fabric"),
    "node-toolless": ({
        "node-toolless-0-decode-a": changed(HEALTHY, verbs=SKIP, gdrcopy=WARN, topology=None, links=None,
                                            nvidia__smi=SKIP, **NO_UCX)}, "unconfirmed", "rdma-access"),
    "node-no-gpu-driver": ({
        "node-no-gpu-driver-0-decode-a": changed(HEALTHY, peer__memory=FAIL, gdrcopy=WARN, topology=None, links=None,
                                                 nvidia__smi=FAIL, **NO_UCX)}, "blocked", "gpudirect"),
    "node-pcie-gpus": ({
        "node-pcie-gpus-0-decode-a": changed(HEALTHY, links=None, nic__affinity=WARN, UCX_NET_DEVICES=WARN)},
        "unconfirmed", "ucx"),  # nic affinity is information; UCX_NET_DEVICES (ucx) is what is open
    "node-ucx-tcp-only": ({
        "node-ucx-tcp-only-0-decode-a": changed(HEALTHY, transports=FAIL, version=WARN, ucx__gpudirect=WARN,
                                                 # its real UCX 1.16 build lacks --enable-mt
                                                 **{"ucx-build": FAIL})},
        "blocked", "ucx"),
    "node-ucx-env-no-rdma": ({
        "node-ucx-env-no-rdma-0-decode-a": changed(HEALTHY, transports=FAIL, **{"ucx-tls": WARN}),
        # and the known-trouble row ucx-net-devices-without-port (a device without :port, UCX < 1.21)
        "node-ucx-env-no-rdma-0-decode-b": changed(HEALTHY, UCX_NET_DEVICES=FAIL,
                                                   **{"ucx-net-devices": WARN})}, "blocked", "ucx"),
    "node-ucx-kv-caps": ({
        "node-ucx-kv-caps-0-decode-a": changed(HEALTHY, transports=FAIL),
        "node-ucx-kv-caps-0-decode-b": changed(HEALTHY, UCX_TLS=FAIL, **{"ucx-tls": FAIL})}, "blocked", "ucx"),
    "node-gpu-rails": ({
        "node-gpu-rails-0-decode-a": changed(HEALTHY, nic__affinity=OK, gpu__rails=WARN)}, "unconfirmed", "nvlink"),
    "node-vm": ({
        "node-vm-0-decode-a": changed(HEALTHY, virtual__machine=WARN)}, "unconfirmed", "gpudirect"),
    "node-allocation-unknown": ({
        "node-allocation-unknown-0-decode-a": changed(HEALTHY, devices=WARN, UCX_NET_DEVICES=WARN)},
        "unconfirmed", "rdma-access"),
}

# Details that must name the cause (substring per pod/check).
DETAILS = {
    ("node-roce-0-decode-a", "ports"): "RoCE (link layer Ethernet)",
    ("node-no-uverbs-0-decode-a", "devices"): "RDMA device not mounted into the pod",
    ("node-memlock-64k-0-decode-a", "memlock"): "memlock 64 KiB and no effective CAP_IPC_LOCK",
    ("node-peermem-dmabuf-0-decode-a", "peer-memory"): "relies on DMA-BUF (open kernel module 550.54.14, kernel 6.8.0-1015-nvidia)",
    ("node-peermem-none-0-decode-a", "peer-memory"): "proprietary kernel module 535.104.05",
    ("node-peermem-none-0-decode-b", "peer-memory"): "open kernel module 550.54.14, kernel 5.4.0-182-generic",
    ("node-port-init-0-decode-a", "port mlx5_3:1"): "waiting for the subnet manager",
    ("node-port-init-0-decode-a", "UCX_NET_DEVICES"): "not Active: mlx5_3:1",
    ("node-port-init-0-decode-b", "ports"): "7/8 ports Active",
    ("node-grace-0-decode-a", "nic affinity"): "normal on Grace",
    ("node-grace-0-decode-b", "UCX_NET_DEVICES"): "on Grace every GPU-NIC path is SYS",
    ("node-allocated-hcas-0-decode-a", "UCX_NET_DEVICES"): "not allocated to this pod (in sysfs, no uverbs node",
    ("node-allocated-hcas-0-decode-a", "ports"): "not judged: mlx5_4..7",
    ("node-allocated-hcas-0-decode-b", "devices"): "mlx5_4..7 in sysfs are not allocated to it",
    ("node-allocated-hcas-0-decode-b", "verbs"): "verbs lists 8 devices, 4 of them this pod's",
    ("node-rate-hdr-0-decode-a", "adapter rate"): "uniform downgrade: all 8 Active InfiniBand ports run 200 Gb/sec (4X HDR) on ConnectX-7",
    ("node-port-down-linkup-0-decode-a", "port mlx5_3:1"): "Down with the physical link up: not the cable",
    ("node-roce-gids-0-decode-a", "roce gids"): "mlx5_0..7:1 (RoCE): every GID sits on ens0f0np0, ens1f0np0, ens2f0np0, ens3f0np0, ens4f0np0, ens5f0np0, ens6f0np0, ens7f0np0, not in the pod's network namespace (the pod has eth0, lo)",
    ("node-roce-gids-0-decode-b", "roce addressing"): "UCX_IB_GID_INDEX=0 names RoCE v1 on mlx5_0..7:1; the RoCE v2 IPv4 entry is index 3",
    ("node-gpu-rails-0-decode-a", "gpu rails"):
        "UCX_NET_DEVICES=mlx5_0:1: 6 of 8 GPUs' nearest NIC is not one UCX uses, so their KV crosses the CPU to "
        "mlx5_0; each should use its own: GPU2→mlx5_2/mlx5_3 (PXB)",
    ("node-vm-0-decode-a", "virtual machine"): "a virtual machine (CPU flag hypervisor, sys_vendor QEMU, product_name Standard PC (Q35 + ICH9, 2009))",
    ("node-toolless-0-decode-a", "nvidia-smi"): "nvidia-smi not in the image",
    ("node-toolless-0-decode-a", "transports"): "ucx_info not in the image",
    ("node-no-gpu-driver-0-decode-a", "nvidia-smi"): "couldn't communicate with the NVIDIA driver",
    ("node-pcie-gpus-0-decode-a", "topology"): "no NVLink on this part",
    ("node-ucx-tcp-only-0-decode-a", "transports"): "UCX would fall back to TCP",
    ("node-ucx-tcp-only-0-decode-a", "version"): "UCX 1.16.0 < 1.19",
    ("node-ucx-kv-caps-0-decode-a", "transports"):
        "NIXL's UCX backend cannot move KV over RDMA; mlx5_0, mlx5_1, mlx5_2, mlx5_3, mlx5_4, mlx5_5, mlx5_6, "
        "mlx5_7 report max_srq 0",
    ("node-ucx-kv-caps-0-decode-b", "transports"): "rc_mlx5, dc_mlx5 on 8 devices",
    ("node-ucx-kv-caps-0-decode-b", "UCX_TLS"): "UCX_TLS=rc_x,tcp leaves out cuda_copy",
    ("node-allocation-unknown-0-decode-a", "UCX_NET_DEVICES"):
        "every listed port is Active, but which HCAs are the pod's is unknown (/sys/class/infiniband_verbs is absent; "
        "4 uverbs nodes for 8 HCAs)",
    ("node-ucx-env-no-rdma-0-decode-a", "transports"):
        "UCX_TLS=cuda_copy,cuda_ipc,tcp has no RDMA transport (rc, dc, ib, srd; ud alone has no one-sided RDMA): UCX moves KV between nodes over TCP",
    ("node-ucx-env-no-rdma-0-decode-b", "UCX_NET_DEVICES"):
        "names no RDMA port (UCX names them like mlx5_0:1): UCX uses TCP only, KV falls back; not UCX device names: "
        "mlx5_0 (mlx5_0:1)",
}


def check_of(doc, pod_suffix, name):
    return [c for t in doc["targets"] if t["name"].endswith(pod_suffix) for c in t["checks"] if c["name"] == name][0]


def statuses(doc):
    return {t["name"]: {c["name"]: c["status"] for c in t["checks"]} for t in doc["targets"]}


class NodeMixin:
    def run_json(self, cluster, version, args):
        rc, out, err, secs = cluster.run_plugin(version, ["node"] + args + ["-o", "json"], timeout=120)
        return rc, harness.json_doc(self, rc, out, err), err, secs


class TestHealthy(NodeMixin, unittest.TestCase):
    WORKERS = {"llama-70b-disagg-0-vllmprefillworker-7xk2p": "prefill",
               "llama-70b-disagg-0-vllmprefillworker-m4q9z": "prefill",
               "llama-70b-disagg-0-vllmdecodeworker-b8w3c": "decode",
               "llama-70b-disagg-0-vllmdecodeworker-r2n6d": "decode"}

    def test_healthy_every_version(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            for v in harness.KUBECTL_VERSIONS:
                with self.subTest(kubectl=v):
                    rc, doc, err, secs = self.run_json(c, v, ["--deployment", "llama-70b-disagg", "-n", "dynamo"])
                    got = statuses(doc)
                    self.assertEqual(set(got), set(self.WORKERS))  # frontend, other DGD, staging: not probed
                    for t in doc["targets"]:
                        self.assertEqual(t["role"], self.WORKERS[t["name"]])
                    for pod in self.WORKERS:
                        want = HEALTHY if not pod.endswith("r2n6d") else changed(HEALTHY, UCX_NET_DEVICES=SKIP)
                        self.assertEqual(got[pod], want, pod)
                    self.assertEqual(doc["verdict"]["status"], "surface-ok")
                    self.assertEqual(rc, 0)
                    rc2, out, err2, _ = c.run_plugin(v, ["node", "--deployment", "llama-70b-disagg", "-n", "dynamo"])
                    self.assertEqual(rc2, 0, err2)
                    self.assertIn("context fake · namespace dynamo", out)
                    self.assertNotIn("frontend-5tq8v", out)
                    # the grid, a row per kind of pods alike (3 all ok, r2n6d with an optional
                    # skip, which keeps no table)
                    self.assertIn("4 pods of 2 kinds, the worst status of each layer:\nPODS ", out)
                    self.assertEqual(out.count("  LAYER "), 0)
                    self.assertIn("VERDICT  surface-ok", out)
                    wide = c.run_plugin(v, ["node", "--deployment", "llama-70b-disagg", "-n", "dynamo",
                                            "-o", "wide"])[1]
                    self.assertEqual(wide.count("  TARGET "), 4)  # one table per worker pod
                    for pod in self.WORKERS:  # each named in -o wide's grid and tables
                        self.assertIn("\n" + pod + "  ", wide)
            self.assertEqual(harness.only_reads(c.request_log()), [])


class TestNodeScenarios(NodeMixin, unittest.TestCase):
    VERSION = "1.32"

    def check_scenario(self, name, version):
        pods, verdict, layer = SCENARIOS[name]
        dgd = name
        with harness.FakeCluster(name) as c:
            rc, doc, err, secs = self.run_json(c, version, ["--deployment", dgd, "-n", "dynamo"])
            got = statuses(doc)
            pods = {name + "-0-prefill-ok": HEALTHY, **pods}
            self.assertEqual(set(got), set(pods))
            for pod, want in pods.items():
                self.assertEqual(got[pod], want, pod)
            details = harness.details(doc)
            for (pod, check), text in DETAILS.items():
                if pod in pods:
                    self.assertIn(text, details[(pod, check)])
            self.assertEqual(doc["verdict"]["status"], verdict, doc["verdict"])
            self.assertEqual(doc["verdict"].get("layer"), layer, doc["verdict"])
            self.assertEqual(rc, VERDICT_RC[verdict], err)
            self.assertEqual(harness.only_reads(c.request_log()), [])
            return c, doc

    def test_roce(self):
        self.check_scenario("node-roce", self.VERSION)

    def test_no_uverbs(self):
        self.check_scenario("node-no-uverbs", self.VERSION)

    def test_memlock_64k(self):
        self.check_scenario("node-memlock-64k", self.VERSION)

    def test_peermem_missing_with_dmabuf(self):
        self.check_scenario("node-peermem-dmabuf", self.VERSION)

    def test_peermem_missing_without_dmabuf(self):
        self.check_scenario("node-peermem-none", self.VERSION)

    def test_grace(self):
        self.check_scenario("node-grace", self.VERSION)

    def test_allocated_hcas(self):
        self.check_scenario("node-allocated-hcas", self.VERSION)

    def test_rate_uniform_downgrade(self):
        self.check_scenario("node-rate-hdr", self.VERSION)

    def test_port_down_link_up(self):
        _, doc = self.check_scenario("node-port-down-linkup", self.VERSION)
        port = check_of(doc, "decode-a", "port mlx5_3:1")
        self.assertIn("sminfo -C mlx5_3 -P 1", port["next"])
        self.assertNotIn("check the cable", port["next"])

    def test_roce_gids(self):
        _, doc = self.check_scenario("node-roce-gids", self.VERSION)
        gids = check_of(doc, "decode-a", "roce gids")
        self.assertIn("hostNetwork: true", gids["next"])
        # Netdevs named like the host's, with the pod's own addresses: not the GIDs' netdevs.
        same_name = check_of(doc, "decode-c", "roce gids")
        self.assertIn("ens0f0np0 (the host's: the pod's ens0f0np0 has other addresses)", same_name["detail"])
        addr = check_of(doc, "decode-b", "roce addressing")
        self.assertEqual(addr["next"], "env: UCX_IB_GID_INDEX=3")

    def test_port_init(self):
        self.check_scenario("node-port-init", self.VERSION)
        # Alone, the pod without UCX_NET_DEVICES only waits for the subnet manager: a warning.
        with harness.FakeCluster("node-port-init") as c:
            rc, doc, err, _ = self.run_json(c, "1.30", ["--pod", "node-port-init-0-decode-b", "-n", "dynamo"])
            self.assertEqual((doc["verdict"]["status"], doc["verdict"]["layer"], rc), ("unconfirmed", "fabric", 1))

    def test_toolless_image(self):
        c, doc = self.check_scenario("node-toolless", self.VERSION)

    def test_no_gpu_driver(self):
        self.check_scenario("node-no-gpu-driver", self.VERSION)

    def test_pcie_only_gpus(self):
        self.check_scenario("node-pcie-gpus", self.VERSION)

    def test_ucx_tcp_only(self):
        self.check_scenario("node-ucx-tcp-only", self.VERSION)

    def test_allocation_unknown(self):
        self.check_scenario("node-allocation-unknown", self.VERSION)

    def test_gpu_rails(self):
        _, doc = self.check_scenario("node-gpu-rails", self.VERSION)
        rails = check_of(doc, "decode-a", "gpu rails")
        self.assertIn("every GPU's traffic through mlx5_0 while mlx5_1, mlx5_2, mlx5_3, mlx5_4, mlx5_5, mlx5_6, mlx5_7 idle",
                      rails["detail"])
        self.assertEqual(rails["next"], "UCX_NET_DEVICES=" + ",".join(f"mlx5_{n}:1" for n in range(8)))
        nearest = [t["facts"]["nearestNics"] for t in doc["targets"] if t["name"].endswith("decode-a")][0]
        self.assertEqual(nearest["GPU0"], ["mlx5_0", "mlx5_1"])

    def test_virtual_machine(self):
        _, doc = self.check_scenario("node-vm", self.VERSION)
        vm = [t["facts"]["vm"] for t in doc["targets"] if t["name"].endswith("decode-a")][0]
        self.assertEqual((vm["sysVendor"], vm["hypervisorFlag"], vm["virtualMachine"]), ("QEMU", True, True))

    def test_ucx_env_without_rdma(self):
        self.check_scenario("node-ucx-env-no-rdma", self.VERSION)

    def test_ucx_kv_capabilities(self):
        """UD alone on NICs without an SRQ, and a UCX_TLS without cuda_copy: each fails at ucx."""
        self.check_scenario("node-ucx-kv-caps", self.VERSION)


class TestSameNode(NodeMixin, unittest.TestCase):
    """Same node is not NVLink: prefill and decode pods on one node without RDMA in the pods."""
    SCENARIO = "node-same-node-tcp"
    WANT = {"prefill-a": FAIL, "decode-a": FAIL, "prefill-b": WARN, "decode-b": WARN}

    def same_node(self, doc):
        return {t["name"].rsplit("-0-", 1)[1]: c for t in doc["targets"] for c in t["checks"]
                if c["name"] == "same node"}

    def test_node_and_nixl_say_kv_goes_over_tcp(self):
        with harness.FakeCluster(self.SCENARIO) as c:
            for mode in ("node", "nixl"):
                with self.subTest(mode=mode):
                    rc, out, err, _ = c.run_plugin("1.32", [mode, "--deployment", self.SCENARIO, "-n", "dynamo",
                                                            "-o", "json"], timeout=120)
                    doc = harness.json_doc(self, rc, out, err)
                    got = self.same_node(doc)
                    self.assertEqual({k: v["status"] for k, v in got.items()}, self.WANT)
                    self.assertIn("shares node h100-node-s with prefill pod node-same-node-tcp-0-prefill-a",
                                  got["decode-a"]["detail"])
                    self.assertIn("neither pod holds an RDMA device, so KV between them goes over TCP",
                                  got["decode-a"]["detail"])
                    self.assertIn("hostIPC and hostPID share the node's namespaces", got["prefill-b"]["detail"])
                    self.assertEqual(doc["verdict"]["status"], "blocked")
                    self.assertEqual(rc, VERDICT_RC["blocked"], err)
                    if mode == "nixl":  # NIXL itself is not the first failure: the same-node pair is
                        self.assertEqual(doc["verdict"].get("layer"), "nvlink", doc["verdict"])
            self.assertEqual(harness.only_reads(c.request_log()), [])



class TestNoRdma(NodeMixin, unittest.TestCase):
    """A decode pod without any RDMA device whose image's UCX lists only tcp."""
    SCENARIO = "node-no-rdma"

    def test_fails_once_at_fabric_and_the_rdma_layers_do_not_apply(self):
        with harness.FakeCluster(self.SCENARIO) as c:
            rc, out, err, _ = c.run_plugin("1.32", ["node", "--deployment", self.SCENARIO, "-n", "dynamo",
                                                    "-o", "json"], timeout=120)
            doc = harness.json_doc(self, rc, out, err)
            pods = {t["name"]: {x["name"]: x for x in t["checks"]} for t in doc["targets"]}
            decode = pods["node-no-rdma-0-decode-a"]
            failed = sorted(n for n, x in decode.items() if x["status"] == "fail")
            # and its UCX (a real 1.16 source build) has no thread support: NIXL's backend fails
            # whatever the fabric (known-trouble row ucx-built-without-enable-mt).
            self.assertEqual(failed, ["hca", "ucx-build"], [(n, x["detail"]) for n, x in decode.items()])
            self.assertEqual(decode["hca"]["layer"], "fabric")
            for name in ("peer-memory", "ucx gpudirect", "transports"):  # failed or warned again before
                self.assertEqual((decode[name]["status"], decode[name]["required"]), ("skipped", False), name)
                self.assertEqual(decode[name]["detail"], "does not apply: the pod has no RDMA device (fabric hca)")
            self.assertEqual(pods["node-no-rdma-0-prefill-ok"]["transports"]["status"], "ok")
            self.assertEqual((doc["verdict"]["status"], doc["verdict"].get("layer")), ("blocked", "fabric"))
            self.assertEqual(rc, VERDICT_RC["blocked"], err)
            self.assertEqual(harness.only_reads(c.request_log()), [])

class TestLinkAndPair(NodeMixin, unittest.TestCase):
    """Link error counters, a RoCE netdev MTU, and two prefill/decode pairs on three nodes whose
    RDMA paths do not meet (link layer, MTU, IB subnet). The healthy pairs of TestHealthy get none
    of these findings."""
    SCENARIO = "node-pair-link"
    WANT = {
        "node-pair-link-0-prefill-a": changed(HEALTHY, port__errors=WARN, pair__mtu=WARN, pair__subnet=WARN,
                                              pair__link__layer=FAIL),
        "node-pair-link-0-decode-a": changed(HEALTHY, pair__mtu=WARN, pair__subnet=WARN),
        "node-pair-link-0-decode-b": changed(HEALTHY, adapter__rate=None, roce__addressing=WARN, mtu=WARN,
                                             pair__link__layer=FAIL),
    }

    def test_link_facts_and_pair_findings(self):
        with harness.FakeCluster(self.SCENARIO) as c:
            rc, doc, err, _ = self.run_json(c, "1.32", ["--deployment", self.SCENARIO, "-n", "dynamo"])
            self.assertEqual(statuses(doc), self.WANT)
            details = harness.details(doc)
            self.assertIn("mlx5_3:1 link_downed 3, symbol_error 12 (cumulative since boot",
                          details[("node-pair-link-0-prefill-a", "port errors")])
            self.assertIn("RDMA MTU 1024 on mlx5_0..7:1 (netdev MTU 1500: ",
                          details[("node-pair-link-0-decode-b", "mtu")])
            layer = details[("node-pair-link-0-decode-b", "pair link layer")]
            self.assertIn("prefill pod node-pair-link-0-prefill-a (node node-pair-a): InfiniBand on mlx5_0..7:1", layer)
            self.assertIn("decode pod node-pair-link-0-decode-b (node node-pair-c): RoCE on mlx5_0..7:1", layer)
            mtu = details[("node-pair-link-0-decode-a", "pair mtu")]
            self.assertIn("(node node-pair-a): RDMA MTU 4096 on mlx5_0..7:1", mtu)
            self.assertIn("(node node-pair-b): RDMA MTU 2048 on mlx5_0..7:1", mtu)
            self.assertIn("fe80:0000:0000:0006 on mlx5_0..7:1", details[("node-pair-link-0-decode-a", "pair subnet")])
            ports = {t["name"]: {p["port"]: p for p in t["facts"]["links"]["ports"]} for t in doc["targets"]}
            self.assertEqual(ports["node-pair-link-0-prefill-a"]["mlx5_3:1"]["counters"]["symbol_error"], 12)
            self.assertEqual(ports["node-pair-link-0-decode-a"]["mlx5_0:1"]["rdmaMtu"], 2048)
            self.assertEqual(ports["node-pair-link-0-decode-a"]["mlx5_0:1"]["subnetPrefix"], "fe80:0000:0000:0006")
            self.assertEqual(ports["node-pair-link-0-decode-b"]["mlx5_0:1"]["netdevMtu"], 1500)
            self.assertEqual((doc["verdict"]["status"], doc["verdict"].get("layer")), ("blocked", "fabric"))
            self.assertEqual(rc, VERDICT_RC["blocked"], err)
            self.assertEqual(harness.only_reads(c.request_log()), [])


class MultinodeMixin(NodeMixin):
    """One multinode decode worker (leader pod running the engine, worker pod running `ray
    start`) and one single-node prefill pod; the leader's engine asks for LIBFABRIC, which the
    image lacks."""
    SCENARIO = LEADER = WORKER = PREFILL = VERSION = None

    def check_roles_and_backend(self, c):
        """Both pods probed and named; the worker pod's KV backend is its leader's."""
        rc, doc, err, _ = self.run_json(c, self.VERSION, ["--deployment", self.SCENARIO, "-n", "dynamo"])
        parts = {t["name"]: (t["role"], t.get("multinode")) for t in doc["targets"]}
        self.assertEqual(parts, {self.LEADER: ("decode", "leader"), self.WORKER: ("decode", "worker"),
                                 self.PREFILL: ("prefill", None)})
        # Read from its own command line (`ray start`) the worker pod's backend would be UCX.
        rc, out, err = c.run_plugin(self.VERSION, ["nixl", "--deployment", self.SCENARIO, "-n", "dynamo",
                                                   "-o", "json"])[:3]
        nixl = harness.json_doc(self, rc, out, err)
        got = statuses(nixl)
        self.assertEqual(got[self.WORKER].get("LIBFABRIC plugin"), FAIL, got[self.WORKER])
        self.assertNotIn("UCX plugin", got[self.WORKER])
        self.assertIn("(on the leader, " + self.LEADER + ")",
                      harness.details(nixl)[(self.WORKER, "kv transfer")])
        return doc


class TestMultinode(MultinodeMixin, unittest.TestCase):
    """Grove's leader and worker cliques of one multinode worker: both probed, each named."""
    SCENARIO = "node-multinode-grove"
    LEADER = SCENARIO + "-0-vllmdecodeworker-ldr-0"
    WORKER = SCENARIO + "-0-vllmdecodeworker-wkr-0"
    PREFILL = SCENARIO + "-0-vllmprefillworker-0"
    VERSION = "1.32"

    def test_leader_and_worker_are_probed_and_named(self):
        with harness.FakeCluster(self.SCENARIO) as c:
            doc = self.check_roles_and_backend(c)
            self.assertEqual(statuses(doc)[self.WORKER], HEALTHY)  # its node is checked as the leader's
            args = ["node", "--deployment", self.SCENARIO, "-n", "dynamo"]
            out = c.run_plugin(self.VERSION, args)[1]  # the three pods alike: one table
            self.assertIn("\n3 pods alike  1 decode leader, 1 decode worker, 1 prefill  ", out)
            self.assertRegex(out, "\n  pods   " + self.LEADER + ",\n +" + self.WORKER + ",")
            out = c.run_plugin(self.VERSION, args + ["-o", "wide"])[1]  # each table's heading
            self.assertIn(self.LEADER + "  decode leader  ", out)
            self.assertIn(self.WORKER + "  decode worker  ", out)
            self.assertEqual(harness.only_reads(c.request_log()), [])


class TestMultinodeLws(MultinodeMixin, unittest.TestCase):
    """LeaderWorkerSet's leader and worker pods: named by worker-index; a worker pod without its
    leader has an unknown KV backend (its own command line is `ray start`), never the default's ok."""
    SCENARIO = "node-multinode-lws"
    SET = SCENARIO + "-vllmdecodeworker-0"
    LEADER = SET + "-0"
    WORKER = SET + "-0-1"
    PREFILL = SCENARIO + "-vllmprefillworker-6b8f9c7d5-x2k4q"
    VERSION = "1.31"

    def test_leader_and_worker_are_probed_and_named(self):
        with harness.FakeCluster(self.SCENARIO) as c:
            self.check_roles_and_backend(c)
            self.assertEqual(harness.only_reads(c.request_log()), [])

    def test_worker_pod_alone_is_never_ok_on_the_default_backend(self):
        wkr = self.WORKER
        with harness.FakeCluster(self.SCENARIO) as c:
            rc, out, err = c.run_plugin("1.32", ["nixl", "--pod", wkr, "-n", "dynamo", "-o", "json"])[:3]
            doc = harness.json_doc(self, rc, out, err)
            got = statuses(doc)[wkr]
            self.assertEqual(got.get("kv transfer"), WARN, got)
            detail = harness.details(doc)[(wkr, "kv transfer")]
            self.assertIn("KV backend unknown", detail)
            self.assertIn("group " + self.LEADER, detail)  # an LWS group is named as its leader pod
            self.assertEqual((doc["verdict"]["status"], doc["verdict"].get("layer")), ("unconfirmed", "nixl"))
            self.assertEqual(rc, VERDICT_RC["unconfirmed"])
            self.assertEqual(harness.only_reads(c.request_log()), [])


class TestUnknownComponentType(NodeMixin, unittest.TestCase):
    """component-type=main is outside the vocabulary: the role flags in the bash -c script
    decide; a pod nothing tells the role of is probed, warned, and never lets the verdict pass."""

    def test_role_flags_decide_and_an_unknown_role_is_never_surface_ok(self):
        with harness.FakeCluster("node-component-type-main") as c:
            v = harness.KUBECTL_VERSIONS[-1]
            rc, doc, err, _ = self.run_json(c, v, ["--deployment", "cmain", "-n", "dynamo"])
            roles = {t["name"]: t["role"] for t in doc["targets"]}
            self.assertEqual(roles, {"cmain-0-sglangworkerb-p1": "prefill", "cmain-0-sglangworkera-d1": "decode",
                                     "cmain-0-sglangworkerc-x1": ""})
            unknown = [t for t in doc["targets"] if t["name"] == "cmain-0-sglangworkerc-x1"][0]
            role = [ch for ch in unknown["checks"] if ch["name"] == "role"][0]
            self.assertEqual(role["status"], "warn")
            self.assertIn("component type 'main' is not in Dynamo's vocabulary", role["detail"])
            self.assertEqual(doc["verdict"]["status"], "unconfirmed")
            self.assertEqual(rc, 1, err)
            # The two pods whose flags tell their roles: a healthy disagg pair, nothing to warn.
            rc, doc, err, _ = self.run_json(c, v, ["--pod", "cmain-0-sglangworkerb-p1",
                                                   "--pod", "cmain-0-sglangworkera-d1", "-n", "dynamo"])
            self.assertEqual({t["name"]: t["role"] for t in doc["targets"]},
                             {"cmain-0-sglangworkerb-p1": "prefill", "cmain-0-sglangworkera-d1": "decode"})
            self.assertFalse([ch for t in doc["targets"] for ch in t["checks"] if ch["name"] == "role"])
            self.assertEqual(doc["verdict"]["status"], "surface-ok", doc["verdict"])
            self.assertEqual(rc, 0)
            self.assertEqual(harness.only_reads(c.request_log()), [])


if __name__ == "__main__":
    unittest.main()
