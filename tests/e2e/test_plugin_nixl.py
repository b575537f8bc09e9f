"""`kubectl dynamo-icheck nixl` against the fake API server, through the real kubectl 1.30-1.32.

One prefill and one decode pod per scenario (scenarios/nixl-*), NIXL layouts from roots/nixl-*,
fake nixlbench / ucx_perftest from roots/nixlbench-* and roots/ucx-perftest. Exact status per
check, verdict status and exit code; no writes in the request log.
Run: cd tests/e2e && ICHECK_PLUGIN=../../build/kubectl-dynamo_icheck python3 -m unittest -v test_plugin_nixl
"""
import json
import os
import signal
import subprocess
import time
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


def transfer_window(cluster, ended):
    """Seconds from the first transfer exec (`... -- timeout N ...`) reaching the API server to the
    plugin's exit: the transfer's own time, without the probes before it, which a loaded machine
    slows by several seconds. None when no transfer ran."""
    starts = [r["time"] for r in cluster.request_log()
              if r["path"].endswith("/exec") and (r["query"].get("command") or [""])[0] == "timeout"]
    return ended - min(starts) if starts else None


class NixlMixin:
    VERSION = "1.32"

    def run_nixl(self, c, scenario, extra=(), version=None, timeout=120):
        rc, out, err, secs = c.run_plugin(version or self.VERSION,
                                          ["nixl", "--deployment", scenario, "-n", "dynamo", "-o", "json"]
                                          + list(extra), timeout=timeout)
        self.transfer_secs = transfer_window(c, time.time())
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


    def interrupt_transfer(self, c, scenario, pair, running, wait_s):
        """SIGINT to the plugin once `running(c)` shows both remote sides: it exits 130 and no
        process is left in either pod."""
        args = ["kubectl", "dynamo-icheck", "nixl", "--deployment", scenario, "-n", "dynamo", "--transfer",
                "--pair", pair, "--transfer-timeout", "120s"]
        proc = subprocess.Popen(args, env=c.env(self.VERSION), cwd=c.dir, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
        try:
            deadline = time.monotonic() + wait_s
            while time.monotonic() < deadline and len(running(c)) < 2:
                time.sleep(0.1)
            self.assertEqual(len(running(c)), 2, c.sandbox_processes())
            os.killpg(proc.pid, signal.SIGINT)
            proc.communicate(timeout=20)
            self.assertEqual(proc.returncode, 130)
            # A hang bound, not a speed figure: the remote sides may take a while under load.
            self.assertEqual(c.sandbox_processes_left(grace=30.0), [])
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


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
                nxt = doc["verdict"]["next"]  # no tool in the image: the same test from a debug container
                self.assertEqual(len(nxt), 2, nxt)
                self.assertIn("debug nixl-vllm-0-decode -n dynamo -it --image=NIXLBENCH_IMAGE --target=main "
                              "--profile=sysadmin -- timeout 60 nixlbench --runtime_type ASIO --asio_address "
                              "10.60.0.2", nxt[0])
                self.assertIn("debug nixl-vllm-0-prefill ", nxt[1])
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


    def test_plugin_whose_libraries_do_not_resolve(self):
        # Both images have libplugin_UCX.so; ldd finds the decode one's libucp.so.0 missing.
        doc, _, _ = self.check("nixl-plugin-libs", {"prefill": NO_TOOL, "decode": dict(NO_TOOL, **{"UCX plugin": FAIL})},
                               "blocked", layer="nixl")
        d = details(doc)
        self.assertEqual(d[("nixl-plugin-libs-0-prefill", "UCX plugin")],
                         "libplugin_UCX.so in /opt/dynamo/nixl/plugins, its libraries resolve (ldd)")
        self.assertEqual(d[("nixl-plugin-libs-0-decode", "UCX plugin")],
                         "libplugin_UCX.so in /opt/dynamo/nixl/plugins cannot load: libucp.so.0 not found (ldd, in "
                         "the container's environment): NIXL reports \"unsupported backend UCX\" (ai-dynamo/nixl #1561)")
        self.assertNotIn(("nixl-plugin-libs-0-decode", "UCX libraries"), d)


    def test_backend_variables_vllm_ignores(self):
        # awsome-inference #72: NIXL_BACKEND / VLLM_NIXL_KVCACHE_BACKEND chose nothing on vLLM.
        doc, _, _ = self.check("nixl-ignored-vars", {"prefill": NO_TOOL, "decode": NO_TOOL}, "unconfirmed", layer="nixl")
        d = details(doc)
        real = "--kv-transfer-config '{\"kv_connector_extra_config\":{\"backends\":[...]}}'"
        for var in ("NIXL_BACKEND", "VLLM_NIXL_KVCACHE_BACKEND"):
            self.assertEqual(d[("nixl-ignored-vars-0-decode", var)],
                             "%s=LIBFABRIC is ignored: vLLM takes its NIXL backend only from %s; KV moves with NIXL "
                             "with UCX (aws-samples/awsome-inference #72)" % (var, real))
            self.assertNotIn(("nixl-ignored-vars-0-prefill", var), d)
        statuses = {c["name"]: c["status"] for t in doc["targets"] if t["name"].endswith("decode") for c in t["checks"]}
        self.assertEqual((statuses["NIXL_BACKEND"], statuses["VLLM_NIXL_KVCACHE_BACKEND"]), (WARN, WARN))


    def test_version_with_known_trouble(self):
        doc, _, _ = self.check("nixl-known-issue", {"prefill": dict(NO_TOOL, versions=OK), "decode": NO_TOOL},
                               "unconfirmed", layer="nixl")
        d = details(doc)
        self.assertTrue(d[("nixl-known-issue-0-prefill", "known-issue")].startswith(
            "NIXL 0.10.0: NIXL 0.10.0 changed UCX transport selection"))
        self.assertTrue(d[("nixl-known-issue-0-prefill", "known-issue")].endswith("(vllm-project/vllm #35799)"))
        self.assertNotIn(("nixl-known-issue-0-decode", "known-issue"), d)


    def test_mooncake_gids(self):
        # SGLang's default engine, Mooncake, opens the HCAs itself: an IPv6-only GID table warns.
        with harness.FakeCluster("nixl-mooncake") as c:
            rc, doc, err, _ = self.run_nixl(c, "nixl-mooncake")
            gid = {t["name"]: c for t in doc["targets"] for c in t["checks"] if c["name"] == "mooncake gid"}
            self.assertEqual((gid["nixl-mooncake-0-prefill"]["status"], gid["nixl-mooncake-0-decode"]["status"]),
                             (OK, WARN))
            self.assertEqual(gid["nixl-mooncake-0-prefill"]["detail"],
                             "Mooncake (KV engine: SGLang's default (no --disaggregation-transfer-backend)): a RoCE "
                             "v2 IPv4 GID on 8 RoCE ports")
            self.assertIn("only IPv6 RoCE v2 GIDs on mlx5_0:1, mlx5_1:1", gid["nixl-mooncake-0-decode"]["detail"])
            self.assertIn("(kvcache-ai/Mooncake #1593)", gid["nixl-mooncake-0-decode"]["detail"])
            self.assertEqual((doc["verdict"]["status"], doc["verdict"].get("layer"), rc),
                             ("unconfirmed", "rdma-access", VERDICT_RC["unconfirmed"]))
            facts = {t["name"]: t["facts"]["nixl"]["kvLibrary"] for t in doc["targets"]}
            self.assertEqual(set(facts.values()), {"MOONCAKE"})
            self.assertEqual(harness.only_reads(c.request_log()), [])


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
        # The known-trouble rows ucx-same-node-pair-pid-namespace-*: two pods on one node, each in
        # its own PID namespace, cannot open each other's memory by CUDA IPC (ucx #11978): nvlink warns.
        doc, _, _ = self.check("nixl-same-node", {"prefill": VLLM_OK, "decode": VLLM_OK}, "unconfirmed",
                               layer="nvlink")
        ipc = [c for t in doc["targets"] for c in t["checks"] if c["name"] == "same-node-ipc"]
        self.assertEqual(sorted({c["status"] for c in ipc}), [WARN])
        self.assertEqual(len(ipc), 4)  # the prefill side's row and the decode side's, on both pods
        lim = doc["verdict"]["limitations"]
        self.assertTrue(any("RDMA is not exercised" in l and "h100-node-p" in l for l in lim), lim)
        # Both pods hold Active RDMA ports: KV between them can use the NIC's loopback.
        self.assertEqual([c for t in doc["targets"] for c in t["checks"] if c["name"] == "same node"], [])


class TestNixlTransfer(NixlMixin, unittest.TestCase):
    def test_transfer_passes(self):
        doc, _, procs = self.check("nixl-bench-asio", {"prefill": dict(VLLM_OK, transfer=OK),
                                                       "decode": dict(VLLM_OK, transfer=OK)},
                                   "confirmed", extra=["--transfer"])
        # The fixture is a single-node NVLink run: above one 400 Gb/s port, and said so.
        self.assertIn("84.5 GB/s (169 % of 50.0 GB/s line rate of one port: several rails or NVLink carried it)",
                      details(doc)[("nixl-bench-asio-0-prefill", "transfer")])
        self.assertEqual(procs, [])

    def test_transfer_slow_is_tcp(self):
        doc, _, procs = self.check("nixl-bench-slow", {"prefill": dict(VLLM_OK, transfer=FAIL),
                                                       "decode": dict(VLLM_OK, transfer=FAIL)},
                                   "blocked", extra=["--transfer"], layer="nixl")
        self.assertIn("KV transfer falls back to TCP", details(doc)[("nixl-bench-slow-0-prefill", "transfer")])
        self.assertIn("0.1 GB/s", details(doc)[("nixl-bench-slow-0-prefill", "transfer")])
        self.assertEqual(procs, [])

    def test_transfer_ucx_perftest_below_half_line_rate(self):
        # The client's real 10.5 GB/s against 400 Gb/s ports: a warning, not a pass.
        doc, _, procs = self.check("nixl-perftest-run", {"prefill": dict(VLLM_OK, transfer=WARN),
                                                         "decode": dict(VLLM_OK, transfer=WARN)},
                                   "unconfirmed", extra=["--transfer"], layer="nixl")
        self.assertEqual(details(doc)[("nixl-perftest-run-0-prefill", "transfer")],
                         "ucx_perftest nixl-perftest-run-0-prefill (node h100-node-p) -> nixl-perftest-run-0-decode "
                         "(node h100-node-d): 10.5 GB/s (21 % of 50.0 GB/s line rate): below half of line rate")
        # It finished, slowly: the next step is about the path (ports, rate, rails), not about
        # running the test by hand to see where it stops.
        self.assertEqual(doc["verdict"]["next"][0],
                         "check UCX_NET_DEVICES names the GPU-affine NICs and that GPUDirect is active; "
                         "compare the pair's ports (state, rate, link layer, GPU-NIC affinity): "
                         "kubectl dynamo-icheck node -o wide --pod nixl-perftest-run-0-prefill "
                         "--pod nixl-perftest-run-0-decode -n dynamo")
        self.assertFalse(any("by hand" in n for n in doc["verdict"]["next"]), doc["verdict"]["next"])
        self.assertTrue(doc["verdict"]["summary"].endswith(
            "; slowest pair: prefill nixl-perftest-run-0-prefill (node h100-node-p, 10.60.0.1) -> decode "
            "nixl-perftest-run-0-decode (node h100-node-d, 10.60.0.2), 10.5 GB/s"), doc["verdict"]["summary"])
        self.assertEqual(procs, [])

    def test_transfer_on_one_node_names_the_pair_on_different_nodes(self):
        # The pair asked for shares a node: it runs at NVLink speed but exercises no RDMA (a warning,
        # not "see where the test stops"), and the next step is this deployment's pair on two nodes.
        name = "nixl-same-node-apart"
        with harness.FakeCluster(name) as c:
            rc, doc, err, _ = self.run_nixl(c, name, ["--transfer", "--pair", "%s-0-prefill,%s-0-decode" % (name, name)])
            checks = {(t["name"], ch["name"]): ch for t in doc["targets"] for ch in t["checks"]}
            for side in ("0-prefill", "0-decode"):
                f = checks[("%s-%s" % (name, side), "transfer")]
                self.assertEqual(f["status"], WARN, f)
                self.assertTrue(f["detail"].endswith("84.5 GB/s on one node: RDMA was not exercised"), f)
            self.assertEqual((doc["verdict"]["status"], rc), ("unconfirmed", 1), err)
            # First the known-trouble row's step for the shared node (hostPID), then this.
            self.assertIn("kubectl dynamo-icheck nixl --transfer --pair %s-0-prefill,%s-1-decode "
                          "--deployment %s -n dynamo" % (name, name, name), doc["verdict"]["next"])
            self.assertEqual(harness.only_reads(c.request_log()), [])
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_transfer_on_one_node_with_no_pair_apart_says_to_schedule_them_apart(self):
        doc, _, procs = self.check("nixl-same-node", {"prefill": dict(VLLM_OK, transfer=WARN),
                                                      "decode": dict(VLLM_OK, transfer=WARN)},
                                   "unconfirmed", extra=["--transfer"], layer="nvlink")  # same-node-ipc
        self.assertIn("no prefill and decode pod checked here run on different nodes: schedule them apart "
                      "(pod anti-affinity), then run --transfer again to test RDMA between nodes",
                      doc["verdict"]["next"])
        self.assertEqual(procs, [])

    def test_transfer_never_connecting_is_bounded_and_skipped(self):
        # --transfer-timeout 5 s after a 2 s head start for the initiator, timed from the first
        # transfer exec (not the probes); the local kill comes 10 s after the timeout, so finishing
        # well before it shows the in-pod `timeout` ended both sides.
        doc, _, procs = self.check("nixl-bench-hang", {"prefill": dict(VLLM_OK, transfer=SKIP),
                                                          "decode": dict(VLLM_OK, transfer=SKIP)},
                                      "unconfirmed", extra=["--transfer", "--transfer-timeout", "5s"], layer="nixl")
        self.assertEqual("transfer test never connected within 5 s", details(doc)[("nixl-bench-hang-0-prefill", "transfer")])
        nxt = doc["verdict"]["next"]  # where the test stops is seen by running it by hand
        self.assertEqual(nxt[0], "run the two commands below by hand to see where the test stops", nxt)
        self.assertTrue(nxt[1].endswith(exec_line("nixl-bench-hang-0-decode", BENCH + " " + BENCH_ARGS, "5")), nxt)
        self.assertLess(self.transfer_secs, 5 + 2 + 6)
        self.assertEqual(procs, [])

    def test_transfer_asked_but_no_tool_is_exit_1_with_the_next_command(self):
        doc, _, procs = self.check("nixl-vllm", {"prefill": dict(NO_TOOL), "decode": dict(NO_TOOL)},
                                   "unconfirmed", extra=["--transfer", "--test-image", "registry.example/nixlbench:1.3"],
                                   layer="nixl")
        d = details(doc)
        self.assertEqual(d[("nixl-vllm-0-prefill", "transfer")],
                         "--transfer asked, but no test can run: neither pod has NIXL's Python API, nixlbench, ucx_perftest or nixl_test "
                         "in common (prefill nixl-vllm-0-prefill (node h100-node-p, 10.60.0.1) -> decode "
                         "nixl-vllm-0-decode (node h100-node-d, 10.60.0.2))")
        nxt = doc["verdict"]["next"]
        self.assertIn("debug nixl-vllm-0-decode -n dynamo -it --image=registry.example/nixlbench:1.3 --target=main", nxt[0])
        self.assertTrue(any("kubectl debug` adds an ephemeral container to each pod" in l and "which this tool never does" in l
                            for l in doc["verdict"]["limitations"]), doc["verdict"]["limitations"])
        self.assertEqual(procs, [])


PLAY = "nixl-transfer-play"


class TestTransferDecides(NixlMixin, unittest.TestCase):
    """Stand-in tools printing real failure outputs (scenario nixl-transfer-play, one pair per case)."""

    def run_pair(self, c, name, timeout="3s"):
        pair = "%s-%s-prefill,%s-%s-decode" % (PLAY, name, PLAY, name)
        rc, doc, err, secs = self.run_nixl(c, PLAY, ["--transfer", "--pair", pair, "--transfer-timeout", timeout])
        self.assertEqual(harness.only_reads(c.request_log()), [])
        return rc, doc, secs

    def test_each_error_class_fails_at_its_layer_and_blocks(self):
        cases = [("unreach", "ucx", "destination unreachable: prefill side: ["),
                 ("backend", "nixl", "NIXL backend missing: decode side: E0421 11:56:59.774282  709103 "
                                     "nixl_agent.cpp:259] getPluginParams: backend 'UCX' not found"),
                 ("verbs", "rdma-access", "verbs call failed: decode side: ["),
                 ("refused", "ucx", "connection refused: prefill side: perftest.c:430  UCX  ERROR client failed. "
                                    "connect() failed: Connection refused"),
                 ("nixlerr", "nixl", "NIXL error: prefill side: nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND"),
                 ("ucxerr", "ucx", "UCX error: decode side: [")]
        with harness.FakeCluster(PLAY) as c:
            for name, layer, says in cases:
                with self.subTest(pair=name):
                    rc, doc, _ = self.run_pair(c, name)
                    checks = {(t["name"], ch["name"]): ch for t in doc["targets"] for ch in t["checks"]}
                    for side in ("prefill", "decode"):
                        f = checks[("%s-%s-%s" % (PLAY, name, side), "transfer")]
                        self.assertEqual((f["status"], f["layer"]), ("fail", layer), f)
                        self.assertIn(says, f["detail"])
                    self.assertEqual(doc["verdict"]["status"], "blocked", doc["verdict"])
                    self.assertEqual(doc["verdict"]["layer"], layer, doc["verdict"])
                    self.assertIn("failing pair: prefill %s-%s-prefill" % (PLAY, name), doc["verdict"]["summary"])
                    self.assertEqual(rc, 2)
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_connected_then_hang_fails_within_the_timeout_plus_10_s(self):
        with harness.FakeCluster(PLAY) as c:
            rc, doc, secs = self.run_pair(c, "stall", timeout="5s")
            f = details(doc)[("%s-stall-decode" % PLAY, "transfer")]
            self.assertIn("connected, then no result within 5 s: data did not move", f)
            self.assertEqual(doc["verdict"]["status"], "blocked")
            self.assertEqual(rc, 2)
            # The in-pod `timeout 5` ends both sides about 2 + 5 s after the first transfer exec;
            # the plugin's own kill would come 10 s after the timeout (about 17 s): timed from the
            # transfer's execs, so slow probes on a loaded machine do not count.
            self.assertLess(self.transfer_secs, 5 + 2 + 6)
            nxt = doc["verdict"]["next"]
            self.assertEqual(nxt[0], "run the two commands below by hand to see where the test stops", nxt)
            self.assertIn("exec %s-stall-decode -n dynamo -c main -- timeout 5 " % PLAY, nxt[1])
            self.assertEqual(c.sandbox_processes_left(), [])

    def test_ctrl_c_during_a_transfer_leaves_no_process_in_either_pod(self):
        # The stall pair keeps running when its exec stream drops (exec.keep_on_disconnect, as a
        # real container runtime does): only the remote side's tie to its stdin can end it.
        with harness.FakeCluster(PLAY) as c:
            self.interrupt_transfer(c, PLAY, "%s-stall-prefill,%s-stall-decode" % (PLAY, PLAY),
                                    self.tools_running, wait_s=30)

    @staticmethod
    def tools_running(c):
        return [p for p in c.sandbox_processes() if "sleep 2147483647" in harness._sandbox.describe(p)]

    def test_four_nodes_one_slow_decode_node_is_tested_and_not_confirmed(self):
        with harness.FakeCluster("nixl-four-nodes") as c:
            rc, doc, err, _ = self.run_nixl(c, "nixl-four-nodes", ["--transfer", "--transfer-timeout", "10s"])
            checks = {t["name"]: {ch["name"]: ch for ch in t["checks"]} for t in doc["targets"]}
            for name, target in checks.items():
                self.assertIn("transfer", target, name)  # every pod is in a tested pair
            self.assertEqual(checks["nixl-four-nodes-decode-1"]["transfer"]["status"], "warn")
            self.assertIn("(node gpu-d1): 9.7 GB/s", checks["nixl-four-nodes-decode-1"]["transfer"]["detail"])
            self.assertEqual(checks["nixl-four-nodes-decode-0"]["transfer"]["status"], "ok")
            v = doc["verdict"]
            self.assertEqual(v["status"], "unconfirmed", v)
            self.assertEqual(rc, 1)
            self.assertIn("slowest pair of 2: prefill", v["summary"])
            self.assertIn("-> decode nixl-four-nodes-decode-1 (node gpu-d1, 10.71.1.2), 9.7 GB/s", v["summary"])
            self.assertEqual(c.sandbox_processes_left(), [])


if __name__ == "__main__":
    unittest.main()
