"""`kubectl dynamo-icheck nixl` against the fake API server, through the real kubectl 1.30-1.32.

One prefill and one decode pod per scenario (scenarios/nixl-*), NIXL layouts from roots/nixl-*,
fake nixlbench / ucx_perftest from roots/nixlbench-* and roots/ucx-perftest. Exact status per
check, verdict status and exit code; no writes in the request log.
Run: cd tests/e2e && ICHECK_PLUGIN=../../build/kubectl-dynamo_icheck python3 -m unittest -v test_plugin_nixl
"""
import json
import unittest

import harness

from harness import OK, WARN, FAIL, SKIP, VERDICT_RC, details  # noqa: E402
NIXL_CHECKS = ("kv transfer", "install", "UCX plugin", "LIBFABRIC plugin", "python import", "versions", "ucx copies", "tools",
               "transfer")

# No python3, no versions file, no /proc/PID/maps in the sandboxes: those checks are skipped.
VLLM_OK = {"kv transfer": OK, "install": OK, "UCX plugin": OK, "versions": SKIP, "ucx copies": SKIP, "tools": OK}
NO_TOOL = dict(VLLM_OK, transfer=SKIP)
BENCH = "/usr/local/nixlbench/bin/nixlbench"
BENCH_ARGS = ("--runtime_type ASIO --asio_address 10.60.0.2 --asio_port 12345 --backend UCX "
              "--initiator_seg_type VRAM --target_seg_type VRAM --scheme pairwise "
              "--total_buffer_size 1073741824 --start_block_size 1048576 --max_block_size 67108864 "
              "--num_iter 100 --warmup_iter 10")
PERFTEST = "/usr/local/ucx/bin/ucx_perftest"
PERFTEST_ARGS = "-t tag_bw -m cuda -s 134217728 -n 100 -p 13337"


def nixl_statuses(doc):
    return {t["name"]: {c["name"]: c["status"] for c in t["checks"] if c["name"] in NIXL_CHECKS}
            for t in doc["targets"]}


def exec_line(pod, tail, timeout="60"):
    return "exec %s -n dynamo -c main -- timeout %s %s" % (pod, timeout, tail)


class NixlMixin:
    VERSION = "1.32"

    def run_nixl(self, c, scenario, extra=(), version=None, timeout=120):
        rc, out, err, secs = c.run_plugin(version or self.VERSION,
                                          ["nixl", "--deployment", scenario, "-n", "dynamo", "-o", "json"]
                                          + list(extra), timeout=timeout)
        return rc, harness.json_doc(self, rc, out, err), err, secs

    def check(self, scenario, pods, verdict, extra=(), version=None, layer=None):
        """pods: {suffix: {check: status}}; returns (doc, secs, cluster sandbox processes after)."""
        with harness.FakeCluster(scenario) as c:
            rc, doc, err, secs = self.run_nixl(c, scenario, extra, version)
            want = {scenario + "-0-" + k: v for k, v in pods.items()}
            self.assertEqual(nixl_statuses(doc), want)
            self.assertEqual(doc["verdict"]["status"], verdict, doc["verdict"])
            if layer is not None:
                self.assertEqual(doc["verdict"].get("layer"), layer, doc["verdict"])
            self.assertEqual(rc, VERDICT_RC[verdict], err)
            self.assertEqual(harness.only_reads(c.request_log()), [])
            return doc, secs, c.sandbox_processes_left()


class TestNixlLayouts(NixlMixin, unittest.TestCase):
    def test_vllm_layout_every_version(self):
        for v in harness.KUBECTL_VERSIONS:
            with self.subTest(kubectl=v):
                doc, _, _ = self.check("nixl-vllm", {"prefill": NO_TOOL, "decode": NO_TOOL}, "surface-ok", version=v)
                d = details(doc)
                self.assertEqual(d[("nixl-vllm-0-decode", "install")],
                                 "NIXL plugins in /opt/dynamo/nixl/plugins (env): POSIX, UCX")
                self.assertEqual(d[("nixl-vllm-0-prefill", "UCX plugin")],
                                 "libplugin_UCX.so in /opt/dynamo/nixl/plugins")
                self.assertEqual(doc["verdict"]["next"], [])
                self.assertIn("no transfer was exercised", doc["verdict"]["limitations"])
                facts = {t["name"]: t["facts"]["nixl"] for t in doc["targets"]}
                self.assertEqual(facts["nixl-vllm-0-prefill"]["pluginDirs"][0]["plugins"], ["POSIX", "UCX"])

    def test_nixl_missing(self):
        fail = {"kv transfer": OK, "install": FAIL, "versions": SKIP, "ucx copies": SKIP, "tools": OK, "transfer": SKIP}
        doc, _, _ = self.check("nixl-missing", {"prefill": fail, "decode": fail}, "blocked", layer="nixl")
        self.assertIn("NIXL not found", details(doc)[("nixl-missing-0-prefill", "install")])

    def test_trtllm_layout(self):
        # Prefill keeps the image's LD_PRELOAD (one UCX in the worker); decode lost it (two: nixl#1668).
        trt = dict(NO_TOOL, versions=OK, **{"ucx copies": OK})
        doc, _, _ = self.check("nixl-trtllm", {"prefill": trt, "decode": dict(trt, **{"ucx copies": WARN})},
                               "unconfirmed", layer="nixl")
        d = details(doc)
        lib = "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/libs/nixl"
        self.assertEqual(d[("nixl-trtllm-0-prefill", "install")], "NIXL 1.0.1 plugins in %s/plugins (env): UCX" % lib)
        self.assertEqual(d[("nixl-trtllm-0-prefill", "kv transfer")],
                         "NIXL with UCX; backend not set in the pod (the framework's default)")
        self.assertEqual(d[("nixl-trtllm-0-prefill", "versions")],
                         "NIXL 1.0.1; LD_PRELOAD=/opt/dynamo/libstdc++.so.6:%s/libnixl.so" % lib)
        self.assertEqual(d[("nixl-trtllm-0-prefill", "ucx copies")], "one UCX in python3 (pid 57): /usr/local/ucx/lib")
        self.assertIn("2 different UCX libraries in python3 (pid 57): /usr/local/ucx/lib, "
                      "/usr/local/lib/python3.12/dist-packages/nixl_cu13.libs", d[("nixl-trtllm-0-decode", "ucx copies")])
        self.assertEqual(doc["verdict"]["next"][0], "load one UCX: LD_PRELOAD the libnixl.so whose UCX the framework "
                                                    "uses, as the Dynamo TRT-LLM image does")

    def test_trtllm_transceiver_on_ucx_bypasses_nixl(self):
        # The engine config the worker was started with sets cache_transceiver_config.backend: UCX:
        # NIXL is not in the KV path, so the decode image lacking it warns, and the test plan is
        # ucx_perftest (the path KV takes) although both images have nixlbench with ASIO.
        trt = dict(VLLM_OK, versions=OK, **{"ucx copies": OK})
        decode = {k: v for k, v in trt.items() if k != "UCX plugin"}
        decode["install"] = WARN
        doc, _, _ = self.check("nixl-trtllm-ucx", {"prefill": trt, "decode": decode}, "surface-ok")
        d = details(doc)
        self.assertEqual(d[("nixl-trtllm-ucx-0-prefill", "kv transfer")],
                         "UCX directly, not NIXL; cache_transceiver_config.backend: UCX in /config/prefill.yaml, "
                         "given to python3 (pid 57)")
        self.assertTrue(d[("nixl-trtllm-ucx-0-decode", "install")].endswith(
            "(not in the KV path: UCX directly, not NIXL)"), d[("nixl-trtllm-ucx-0-decode", "install")])
        nxt = doc["verdict"]["next"]
        self.assertTrue(nxt[0].endswith(exec_line("nixl-trtllm-ucx-0-decode", PERFTEST + " " + PERFTEST_ARGS)), nxt)
        facts = {t["name"]: t["facts"]["nixl"] for t in doc["targets"]}
        self.assertEqual(facts["nixl-trtllm-ucx-0-prefill"]["kvLibrary"], "UCX")
        self.assertEqual(facts["nixl-trtllm-ucx-0-prefill"]["engineConfig"], "/config/prefill.yaml")
        self.assertNotIn("max_tokens_in_buffer", json.dumps(doc))  # the file's content stays in the pod

    def test_libfabric_backend(self):
        # The image of nixl-no-ucx-plugin, but the pods choose LIBFABRIC: nothing is missing.
        pods = {k: v for k, v in NO_TOOL.items() if k != "UCX plugin"}
        pods["LIBFABRIC plugin"] = OK
        doc, _, _ = self.check("nixl-libfabric", {"prefill": pods, "decode": pods}, "surface-ok")
        self.assertEqual(details(doc)[("nixl-libfabric-0-decode", "LIBFABRIC plugin")],
                         "libplugin_LIBFABRIC.so in /opt/dynamo/nixl/plugins (backend set by --kv-transfer-config)")
        self.assertEqual(details(doc)[("nixl-libfabric-0-decode", "ucx copies")],
                         "no process in the container maps UCX (the LIBFABRIC backend does not load it)")
        facts = doc["targets"][0]["facts"]["nixl"]
        self.assertEqual((facts["backends"], facts["backendSource"], facts["kvbmBackends"]),
                         (["LIBFABRIC"], "--kv-transfer-config", ["LIBFABRIC"]))

    def test_ucx_plugin_missing(self):
        pods = dict(NO_TOOL, **{"UCX plugin": FAIL})
        doc, _, _ = self.check("nixl-no-ucx-plugin", {"prefill": pods, "decode": pods}, "blocked", layer="nixl")
        self.assertEqual(details(doc)[("nixl-no-ucx-plugin-0-decode", "UCX plugin")],
                         "libplugin_UCX.so missing in /opt/dynamo/nixl/plugins: NIXL cannot create the UCX backend")


class TestNixlPlans(NixlMixin, unittest.TestCase):
    def test_nixlbench_asio_commands(self):
        doc, _, _ = self.check("nixl-bench-asio", {"prefill": VLLM_OK, "decode": VLLM_OK}, "surface-ok")
        self.assertEqual(details(doc)[("nixl-bench-asio-0-prefill", "tools")],
                         BENCH + " (ASIO runtime), /usr/bin/ucx_info")
        nxt = doc["verdict"]["next"]
        self.assertEqual(len(nxt), 2, nxt)
        self.assertTrue(nxt[0].startswith("kubectl "), nxt)
        self.assertTrue(nxt[0].endswith(exec_line("nixl-bench-asio-0-decode", BENCH + " " + BENCH_ARGS)), nxt[0])
        self.assertTrue(nxt[1].endswith(exec_line("nixl-bench-asio-0-prefill", BENCH + " " + BENCH_ARGS)), nxt[1])
        self.assertIn("nixlbench, ASIO runtime (no etcd); start the decode side first", doc["verdict"]["limitations"])

    def test_only_ucx_perftest(self):
        doc, _, _ = self.check("nixl-perftest", {"prefill": VLLM_OK, "decode": VLLM_OK}, "surface-ok")
        nxt = doc["verdict"]["next"]
        self.assertEqual(len(nxt), 2, nxt)
        self.assertTrue(nxt[0].endswith(exec_line("nixl-perftest-0-decode", PERFTEST + " " + PERFTEST_ARGS)), nxt[0])
        self.assertTrue(nxt[1].endswith(exec_line("nixl-perftest-0-prefill",
                                                  PERFTEST + " 10.60.0.2 " + PERFTEST_ARGS)), nxt[1])
        self.assertIn("ucx_perftest: server on decode, client on prefill, CUDA memory", doc["verdict"]["limitations"])

    def test_same_node(self):
        doc, _, _ = self.check("nixl-same-node", {"prefill": VLLM_OK, "decode": VLLM_OK}, "surface-ok")
        lim = doc["verdict"]["limitations"]
        self.assertTrue(any("RDMA is not exercised" in l and "h100-node-p" in l for l in lim), lim)


class TestNixlTransfer(NixlMixin, unittest.TestCase):
    def test_transfer_passes(self):
        doc, _, procs = self.check("nixl-bench-asio", {"prefill": dict(VLLM_OK, transfer=OK), "decode": VLLM_OK},
                                   "confirmed", extra=["--transfer"])
        # The fixture is a single-node NVLink run: above one 400 Gb/s port, and said so.
        self.assertIn("84.5 GB/s (169 % of 50.0 GB/s line rate of one port: several rails or NVLink carried it)",
                      details(doc)[("nixl-bench-asio-0-prefill", "transfer")])
        self.assertEqual(procs, [])

    def test_transfer_slow_is_tcp(self):
        doc, _, procs = self.check("nixl-bench-slow", {"prefill": dict(VLLM_OK, transfer=FAIL), "decode": VLLM_OK},
                                   "blocked", extra=["--transfer"], layer="nixl")
        self.assertIn("KV transfer falls back to TCP", details(doc)[("nixl-bench-slow-0-prefill", "transfer")])
        self.assertIn("0.1 GB/s", details(doc)[("nixl-bench-slow-0-prefill", "transfer")])
        self.assertEqual(procs, [])

    def test_transfer_ucx_perftest_below_half_line_rate(self):
        # The client's real 10.5 GB/s against 400 Gb/s ports: a warning, not a pass.
        doc, _, procs = self.check("nixl-perftest-run", {"prefill": dict(VLLM_OK, transfer=WARN), "decode": VLLM_OK},
                                   "unconfirmed", extra=["--transfer"], layer="nixl")
        self.assertEqual(details(doc)[("nixl-perftest-run-0-prefill", "transfer")],
                         "ucx_perftest nixl-perftest-run-0-prefill <-> nixl-perftest-run-0-decode: 10.5 GB/s "
                         "(21 % of 50.0 GB/s line rate): below half of line rate")
        self.assertEqual(doc["verdict"]["next"],
                         ["check UCX_NET_DEVICES names the GPU-affine NICs and that GPUDirect is active"])
        self.assertEqual(procs, [])

    def test_transfer_hang_is_bounded(self):
        # --transfer-timeout 5 s, 2 s head start for the initiator, probe time; the local kill comes
        # 10 s after the timeout, so finishing well before it shows the in-pod `timeout` ended both sides.
        doc, secs, procs = self.check("nixl-bench-hang", {"prefill": dict(VLLM_OK, transfer=SKIP), "decode": VLLM_OK},
                                      "unconfirmed", extra=["--transfer", "--transfer-timeout", "5s"], layer="nixl")
        self.assertIn("did not finish within 5 s", details(doc)[("nixl-bench-hang-0-prefill", "transfer")])
        nxt = doc["verdict"]["next"]  # where the test stops is seen by running it by hand
        self.assertEqual(nxt[0], "run the two commands below by hand to see where the test stops", nxt)
        self.assertTrue(nxt[1].endswith(exec_line("nixl-bench-hang-0-decode", BENCH + " " + BENCH_ARGS, "5")), nxt)
        self.assertLess(secs, 5 + 2 + 6)
        self.assertEqual(procs, [])


if __name__ == "__main__":
    unittest.main()
