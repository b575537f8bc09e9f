"""What the workers' own KV-transfer metrics say (issue 29): each worker's metrics page
(DYN_SYSTEM_PORT, read inside the pod from 127.0.0.1 twice a few seconds apart, here by the
image's curl: roots/metrics-curl serves two pages per port from tests/fixtures/metrics) judged in
the nixl layer on nixl and all: failure counters that grew fail, KV moved at line-rate class is
observed traffic that confirms where no transfer test ran, a decode worker serving without
receiving KV warns, a refused port is skipped with why. `all` also reads the workers' logs and
events (scenario logs-signatures) and finds each failure in its layer.
"""
import http.server
import json
import os
import re
import shutil
import tempfile
import threading
import unittest

import harness
from harness import FAIL, WARN, SKIP

P = "metrics-dgd-0-"
DGD = ["--deployment", "metrics-dgd"]
KV = {"kv-traffic", "kv-failures", "kv-received", "kv-metrics"}
# pod -> {check: (layer, status, required)}
EXPECTED = {
    P + "decode-traffic": {"kv-traffic": ("nixl", "ok", False)},
    P + "decode-failing": {"kv-failures": ("nixl", FAIL, True), "kv-received": ("nixl", WARN, True)},
    P + "decode-no-kv": {"kv-received": ("nixl", WARN, True)},
    P + "prefill-refused": {"kv-metrics": ("nixl", SKIP, False)},
}
SECONDS = r"in \d+\.\d s"  # the pod's own clock between the reads: never asserted as a figure


def kv_checks(doc):
    return {t["name"]: {c["name"]: (c["layer"], c["status"], c["required"]) for c in t["checks"] if c["name"] in KV}
            for t in doc["targets"] if t["kind"] == "pod"}


def check(doc, pod, name):
    return [c for t in doc["targets"] if t["name"] == pod for c in t["checks"] if c["name"] == name][0]


def recipe_named(name, test):
    """A real recipe (tests/recipes, Qwen3-32B FP8 vLLM disagg) deployed under `name`."""
    src = os.path.join(os.path.dirname(harness.E2E_DIR), "recipes", "qwen3-32b-fp8", "vllm", "disagg")
    d = tempfile.mkdtemp(prefix="icheck-recipe-")
    test.addClassCleanup(shutil.rmtree, d)
    with open(os.path.join(src, "deploy.yaml")) as f:
        text = f.read()
    with open(os.path.join(d, "deploy.yaml"), "w") as f:
        f.write(text.replace("name: qwen3-32b-fp8-vllm-disagg", "name: " + name, 1))
    return d


class KvMetrics(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = harness.FakeCluster("metrics-kv").start()
        before = len(cls.c.request_log())
        cls.rc, out, err, _ = cls.c.run_plugin("1.31", ["nixl"] + DGD + ["-o", "json"])
        cls.out, cls.err = out, err
        cls.log = cls.c.request_log()[before:]

    @classmethod
    def tearDownClass(cls):
        cls.c.__exit__(None, None, None)

    def doc(self):
        return harness.json_doc(self, self.rc, self.out, self.err)

    def test_each_worker_is_judged_by_its_own_counters_in_the_nixl_layer(self):
        doc = self.doc()
        self.assertEqual(kv_checks(doc), EXPECTED, self.err)
        self.assertEqual((doc["verdict"]["status"], doc["verdict"]["layer"], self.rc), ("blocked", "nixl", 2))
        self.assertIn(P + "decode-failing", doc["verdict"]["summary"])

    def test_each_finding_names_the_metric_its_two_values_and_the_interval(self):
        doc = self.doc()
        failing = check(doc, P + "decode-failing", "kv-failures")["detail"]
        self.assertRegex(failing, r"^KV transfers failing now: vllm:nixl_num_failed_transfers_total 2 -> 9 "
                         + SECONDS + r"; vllm:nixl_num_failed_notifications_total 0 -> 1 " + SECONDS +
                         re.escape(" (127.0.0.1:9090/metrics, DYN_SYSTEM_PORT=9090)") + "$")
        traffic = check(doc, P + "decode-traffic", "kv-traffic")
        self.assertTrue(traffic.get("observedTraffic"), traffic)
        self.assertRegex(traffic["detail"], r"vllm:nixl_bytes_transferred_sum 120000000000 -> 126000000000 "
                         + SECONDS + r" \(100 transfers\)")
        self.assertIn("40.0 GB/s per transfer (80 % of 50.0 GB/s line rate): observed traffic", traffic["detail"])
        no_kv = check(doc, P + "decode-no-kv", "kv-received")["detail"]
        self.assertRegex(no_kv, r"^decode served requests but received no KV: vllm:request_success_total "
                         r"100 -> 130 " + SECONDS)
        self.assertIn('vllm:prompt_tokens_by_source_total{source="external_kv_transfer"} 0 -> 0', no_kv)
        refused = check(doc, P + "prefill-refused", "kv-metrics")["detail"]
        self.assertEqual(refused, "KV-transfer metrics not read: 127.0.0.1:9090/metrics: curl: (7) Failed to "
                                  "connect to 127.0.0.1 port 9090 after 0 ms: Couldn't connect to server")

    def test_the_facts_say_what_was_read_and_from_where(self):
        facts = {t["name"]: t["facts"]["kvMetrics"] for t in self.doc()["targets"]}
        traffic = facts[P + "decode-traffic"]
        self.assertEqual((traffic["reader"], traffic["read"]), ("curl", True))
        self.assertEqual(traffic["endpoints"], [{"source": "dynamo", "port": 9090, "path": "/metrics",
                                                 "from": "DYN_SYSTEM_PORT=9090", "read": True}])
        self.assertEqual(traffic["counters"]["bytesMoved"], 6e9)
        self.assertEqual(facts[P + "decode-failing"]["counters"]["vllm:nixl_num_failed_transfers_total"],
                         {"from": 2.0, "to": 9.0})
        self.assertFalse(facts[P + "prefill-refused"]["read"])

    def test_observed_traffic_confirms_where_no_transfer_test_ran(self):
        rc, out, err, _ = self.c.run_plugin("1.31", ["nixl", "--pod", P + "decode-traffic", "-o", "json"])
        doc = harness.json_doc(self, rc, out, err)
        self.assertEqual((doc["verdict"]["status"], rc), ("confirmed", 0), doc["verdict"])
        self.assertEqual(doc["verdict"]["summary"], "confirmed: observed traffic: the workers' own metrics show "
                         "KV moved at line-rate class on 1 pod (" + P + "decode-traffic)")
        self.assertIn("no transfer test ran: the evidence is the traffic the workers served while they were read",
                      doc["verdict"]["limitations"])
        rc, out, err, _ = self.c.run_plugin("1.31", ["nixl", "--pod", P + "decode-traffic"])
        self.assertIn("observed traffic", out, err)
        self.assertIn("kv-traffic", out)

    def test_node_does_not_read_them(self):
        rc, out, err, _ = self.c.run_plugin("1.31", ["node", "--pod", P + "decode-failing", "-o", "json"])
        doc = harness.json_doc(self, rc, out, err)
        self.assertEqual(kv_checks(doc), {P + "decode-failing": {}})
        self.assertNotIn("kvMetrics", doc["targets"][0]["facts"])

    def test_the_reader_only_reads_and_never_leaves_the_pod(self):
        self.assertEqual(harness.only_reads(self.log), [])
        self.assertNotIn("services", " ".join(r["path"] for r in self.log))
        self.assertNotIn("/proxy", " ".join(r["path"] for r in self.log))

    def test_all_judges_the_metrics_too(self):
        rc, out, err, _ = self.c.run_plugin("1.31", ["all", recipe_named("metrics-dgd", self), "-o", "json"])
        doc = harness.json_doc(self, rc, out, err)
        self.assertEqual(kv_checks(doc), EXPECTED, err)
        self.assertEqual((doc["verdict"]["status"], doc["verdict"]["layer"]), ("blocked", "nixl"))


class Pages(http.server.BaseHTTPRequestHandler):
    """A worker's metrics server on this machine's loopback (the fake pods share its network):
    the Nth GET answers pages[N - 1] (the last one after that); with `redirect`, every GET is sent
    elsewhere with a 302, which the reader must not follow."""

    def do_GET(self):
        self.server.paths.append(self.path)
        if self.server.redirect:
            self.send_response(302)
            self.send_header("Location", "http://127.0.0.1:1/elsewhere")
            self.end_headers()
            return
        body = self.server.pages[min(len(self.server.paths), len(self.server.pages)) - 1].encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def serve(pages, redirect=False):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Pages)
    server.pages, server.redirect, server.paths = pages, redirect, []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def fixture_page(name):
    with open(os.path.join(os.path.dirname(harness.E2E_DIR), "fixtures", "metrics", name)) as f:
        return f.read().split("\n", 1)[1]  # the provenance line is not part of the page


class PythonReader(unittest.TestCase):
    """The image's python3 reads a real HTTP server (no curl in the image): two GETs a few seconds
    apart, nothing else, and a redirect is an error, never followed."""

    @classmethod
    def setUpClass(cls):
        cls.dynamo = serve([fixture_page("vllm-decode-traffic-1.prom"), fixture_page("vllm-decode-traffic-2.prom")])
        cls.nixl = serve([], redirect=True)
        cls.addClassCleanup(cls.dynamo.shutdown)
        cls.addClassCleanup(cls.nixl.shutdown)
        d = tempfile.mkdtemp(prefix="icheck-scenario-")
        cls.addClassCleanup(shutil.rmtree, d)
        env = {"UCX_TLS": "rc_x,cuda_copy,cuda_ipc", "NIXL_PLUGIN_DIR": "/opt/dynamo/nixl/plugins",
               "UCX_NET_DEVICES": "mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1",
               "DYN_SYSTEM_PORT": str(cls.dynamo.server_address[1]), "NIXL_TELEMETRY_ENABLE": "y",
               "NIXL_TELEMETRY_EXPORTER": "prometheus",
               "NIXL_TELEMETRY_PROMETHEUS_PORT": str(cls.nixl.server_address[1])}
        scenario = {"description": "metrics-kv's traffic worker read by the image's python3 from a real server",
                    "defaults": {"namespace": "dynamo"},
                    "pods": [{"name": P + "decode-python", "node": "h100-node-a", "ip": "10.70.0.9", "python": True,
                              "root": ["base", "h100-ib", "h100-ib-tools", "nixl-vllm"],
                              "labels": {"nvidia.com/dynamo-graph-deployment-name": "metrics-dgd",
                                         "nvidia.com/dynamo-component-type": "worker",
                                         "nvidia.com/dynamo-sub-component-type": "decode",
                                         "nvidia.com/dynamo-component": "VllmDecodeWorker"},
                              "containers": [{"name": "main", "command": ["python3", "-m", "dynamo.vllm"],
                                              "env": env}]}]}
        os.makedirs(os.path.join(d, "metrics-python"))
        with open(os.path.join(d, "metrics-python", "scenario.json"), "w") as f:
            json.dump(scenario, f)
        with harness.FakeCluster(os.path.join(d, "metrics-python")) as c:
            cls.rc, cls.out, cls.err, _ = c.run_plugin("1.31", ["nixl"] + DGD + ["-o", "json"])

    def test_two_gets_judged_as_observed_traffic(self):
        doc = harness.json_doc(self, self.rc, self.out, self.err)
        (t,) = doc["targets"]
        self.assertEqual(t["facts"]["kvMetrics"]["reader"], "python3", self.err)
        traffic = check(doc, P + "decode-python", "kv-traffic")
        self.assertEqual((traffic["status"], traffic.get("observedTraffic")), ("ok", True), traffic)
        self.assertEqual(self.dynamo.paths, ["/metrics", "/metrics"])

    def test_a_redirect_is_an_error_never_followed(self):
        doc = harness.json_doc(self, self.rc, self.out, self.err)
        nixl = doc["targets"][0]["facts"]["kvMetrics"]["endpoints"][1]
        self.assertEqual((nixl["source"], nixl["read"]), ("nixl-telemetry", False))
        self.assertEqual(nixl["error"], "OSError: HTTP 302 Found")
        self.assertEqual(self.nixl.paths, ["/metrics", "/metrics"])


class AllReadsLogs(unittest.TestCase):
    """`all` finds each failure the workers' logs and events show in its layer, as node and nixl do
    (test_plugin_logs)."""

    def test_each_failure_in_its_layer(self):
        with harness.FakeCluster("logs-signatures") as c:
            rc, out, err, _ = c.run_plugin("1.31", ["all", recipe_named("logs-dgd", self), "-o", "json"])
        doc = harness.json_doc(self, rc, out, err)
        found = {(t["name"], c["name"]): (c["layer"], c["status"]) for t in doc["targets"] for c in t["checks"]}
        L = "logs-dgd-0-"
        expected = {(L + "prefill-efa-mr", "efa-mr-registration"): ("gpudirect", FAIL),
                    (L + "decode-nccl-socket", "efa-cuda-p2p"): ("gpudirect", FAIL),
                    (L + "decode-nccl-socket", "nccl-network"): ("fabric", WARN),
                    (L + "decode-sriov", "sriov-vf"): ("rdma-access", FAIL),
                    (L + "decode-imex", "compute-domain"): ("nvlink", WARN),
                    (L + "prefill-restarted", "mooncake-transfer"): ("nixl", FAIL)}
        self.assertEqual({k: found.get(k) for k in expected}, expected, err)
        self.assertEqual((doc["verdict"]["status"], doc["verdict"]["layer"]), ("blocked", "rdma-access"))


if __name__ == "__main__":
    unittest.main()
