"""`all RECIPE_DIR` on a real recipe deployed as fake pods: one report, one verdict, and JSON
that carries every pod and every check (issue 5 "Done when")."""
import os
import unittest

import harness

RECIPE = os.path.join(os.path.dirname(harness.E2E_DIR), "recipes", "llama-3-70b", "vllm",
                      "disagg-multi-node")
PODS = {
    "llama3-70b-disagg-mn-0-vllmprefillworker-7xk2p",
    "llama3-70b-disagg-mn-0-vllmprefillworker-m4q9z",
    "llama3-70b-disagg-mn-0-vllmdecodeworker-b8w3c",
    "llama3-70b-disagg-mn-0-vllmdecodeworker-r2n6d",
}


class AllOnARecipe(unittest.TestCase):
    def test_one_report_every_pod_and_check(self):
        with harness.FakeCluster("all-llama3-70b-mn") as c:
            rc, out, err, _ = c.run_plugin("1.32", ["all", RECIPE, "-o", "json"])
            log = c.request_log()
        doc = harness.json_doc(self, rc, out, err)
        self.assertEqual(doc["mode"], "all")
        kinds = [t["kind"] for t in doc["targets"]]
        self.assertEqual(kinds.count("manifest"), 1)
        self.assertEqual({t["name"] for t in doc["targets"] if t["kind"] == "pod"}, PODS)
        layers = {ch["layer"] for t in doc["targets"] if t["kind"] == "pod" for ch in t["checks"]}
        self.assertEqual(layers, {"env", "fabric", "rdma-access", "gpudirect", "nvlink", "ucx", "nixl"})
        # The fake image has no NIXL: the first blocking layer is nixl, on every pod.
        self.assertEqual(doc["verdict"]["status"], "blocked")
        self.assertEqual(doc["verdict"]["layer"], "nixl")
        self.assertIn("on 4 of 5 targets", doc["verdict"]["summary"])
        self.assertEqual(rc, 2)
        # The recipe sets no transport env; the pods' values are reported as injected.
        decode = next(t for t in doc["targets"] if t["name"].endswith("r2n6d"))
        tls = next(ch for ch in decode["checks"] if ch["name"] == "VllmDecodeWorker UCX_TLS")
        self.assertEqual(tls["status"], "ok")
        self.assertIn("not in the recipe", tls["detail"])
        # The two decode pods were given different env: the cross-pod check says which names.
        diff = next(ch for ch in decode["checks"] if ch["name"] == "transport env")
        self.assertEqual(diff["status"], "warn")
        self.assertTrue(diff["detail"].startswith("NCCL_SOCKET_IFNAME, NIXL_ETCD_PASSWORD"))
        self.assertNotIn("s3cr3t-do-not-print", out + err)
        self.assertEqual(harness.only_reads(log), [])


    def test_a_recipe_whose_deployment_runs_no_pods_is_not_surface_ok(self):
        # The manifest's checks pass; the worker pods `all` is asked for do not exist here.
        recipe = os.path.join(os.path.dirname(harness.E2E_DIR), "recipes", "qwen3-32b-fp8", "vllm", "disagg")
        with harness.FakeCluster("healthy-h100-ib") as c:
            rc, out, err, _ = c.run_plugin("1.32", ["all", recipe, "-n", "dynamo", "-o", "json"])
        doc = harness.json_doc(self, rc, out, err)
        self.assertEqual([t["kind"] for t in doc["targets"]], ["manifest"])
        self.assertEqual(doc["verdict"]["status"], "unconfirmed")
        self.assertIn("no Dynamo worker pods found for deployment qwen3-32b-fp8-vllm-disagg",
                      doc["verdict"]["summary"])
        self.assertEqual(rc, 1)


class EnvLive(unittest.TestCase):
    def test_recipe_against_running_pods(self):
        with harness.FakeCluster("all-llama3-70b-mn") as c:
            rc, out, err, _ = c.run_plugin("1.31", ["env", RECIPE, "--live", "-o", "json"])
            log = c.request_log()
        doc = harness.json_doc(self, rc, out, err)
        self.assertEqual(doc["mode"], "env")
        pods = [t for t in doc["targets"] if t["kind"] == "pod"]
        self.assertEqual({t["name"] for t in pods}, PODS)
        for t in pods:
            self.assertTrue(all(ch["layer"] == "env" for ch in t["checks"]), t)
            names = {ch["name"].split(" ", 1)[1] for ch in t["checks"]}
            self.assertIn("UCX_TLS", names)
        self.assertNotIn("s3cr3t-do-not-print", out + err)
        self.assertEqual(harness.only_reads(log), [])
        # The recipe requests no RDMA resource for its cross-node workers: a warning, not a block.
        self.assertEqual(doc["verdict"]["status"], "unconfirmed")
        self.assertTrue(doc["verdict"]["summary"].startswith(
            "unconfirmed at env on 1 of 5 targets: deploy.yaml (VllmPrefillWorker rdma-resource:"), doc["verdict"])
        self.assertEqual(rc, 1)


if __name__ == "__main__":
    unittest.main()
