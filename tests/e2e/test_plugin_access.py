"""Kubernetes access through the plugin: kubeconfig resolution, discovery and roles, each exec
failure mode, output cap, kubectl missing, secrets never printed, 32 pods in parallel, no writes.
Run: cd tests/e2e && ICHECK_PLUGIN=../../build/kubectl-dynamo_icheck python3 -m unittest -v test_plugin_access
"""
import os
import time
import unittest

import harness

SECRETS = ["hf_FAKEfakeFAKEfakeFAKEfake0123456789", "s3cr3t-do-not-print"]
ARGS = ["node", "--deployment", "llama-70b-disagg"]


def doc_of(test, out, err):
    return harness.json_doc(test, None, out, err)


def first(doc, pod):
    t = [t for t in doc["targets"] if t["name"] == pod][0]
    return t["checks"][0]


class TestKubeconfig(unittest.TestCase):
    def test_resolution_table(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            other = os.path.join(c.dir, "second.yaml")
            c.write_kubeconfig(other, "staging", context="second")
            two = {"KUBECONFIG": c.kubeconfig + ":" + other}
            for v in harness.KUBECTL_VERSIONS:
                with self.subTest(kubectl=v, case="two files, first current-context"):
                    rc, out, err, _ = c.run_plugin(v, ARGS, env=two)
                    self.assertIn("context fake · namespace dynamo", out)
                    self.assertEqual(rc, 0, err)
                with self.subTest(kubectl=v, case="--context from the second file"):
                    rc, out, err, _ = c.run_plugin(v, ARGS + ["--context", "second", "-o", "json"], env=two)
                    self.assertIn("llama-70b-disagg-0-vllmprefillworker-q0x1x", [t["name"] for t in doc_of(self, out, err)["targets"]])
                    rc, out, err, _ = c.run_plugin(v, ARGS + ["--context", "second"], env=two)
                    self.assertIn("context second · namespace staging", out)
                with self.subTest(kubectl=v, case="-n=foo"):
                    rc, out, err, _ = c.run_plugin(v, ARGS + ["-n=foo"])
                    self.assertIn("context fake · namespace foo", out)
                    self.assertIn("no Dynamo worker pods found for deployment llama-70b-disagg in namespace foo", out)
                    self.assertEqual(rc, 3)
                with self.subTest(kubectl=v, case="missing context"):
                    rc, out, err, _ = c.run_plugin(v, ARGS + ["--context", "nope"])
                    self.assertIn("context was not found for specified context: nope", err)
                    self.assertEqual(rc, 3)
            self.assertEqual(harness.only_reads(c.request_log()), [])


class TestDiscovery(unittest.TestCase):
    def test_roles_v1alpha1_and_v1beta1_labels(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            for v in harness.KUBECTL_VERSIONS:
                with self.subTest(kubectl=v):
                    rc, out, err, _ = c.run_plugin(v, ARGS + ["-o", "json"])
                    roles = {t["name"]: (t["role"], t["node"]) for t in doc_of(self, out, err)["targets"]}
                    self.assertEqual(roles, {
                        "llama-70b-disagg-0-vllmprefillworker-7xk2p": ("prefill", "h100-node-a"),  # v1beta1
                        "llama-70b-disagg-0-vllmprefillworker-m4q9z": ("prefill", "h100-node-b"),
                        "llama-70b-disagg-0-vllmdecodeworker-b8w3c": ("decode", "h100-node-c"),  # v1alpha1
                        "llama-70b-disagg-0-vllmdecodeworker-r2n6d": ("decode", "h100-node-d")})
                    for s in SECRETS:
                        self.assertNotIn(s, out + err)
                    rc, out, err, _ = c.run_plugin(v, ARGS + ["-o", "yaml"])
                    rc2, out2, err2, _ = c.run_plugin(v, ARGS)
                    for s in SECRETS:
                        self.assertNotIn(s, out + err + out2 + err2)


class TestExecFailures(unittest.TestCase):
    def test_pending_and_broken(self):
        with harness.FakeCluster("pending-and-broken") as c:
            t0 = time.monotonic()
            rc, out, err, secs = c.run_plugin("1.31", ["node", "--deployment", "broken-dgd", "--timeout", "3s", "-o", "json"])
            doc = doc_of(self, out, err)
            # The hang would never end: --timeout 3s ends it, and the default --timeout (30 s) would
            # come much later; the bound sits between the two, with room for a loaded machine.
            self.assertLess(secs, 3 + 12.0)
            self.assertEqual(c.sandbox_processes_left(), [])
            want = {
                "broken-dgd-0-prefill-pending": ("pod", "skipped", "Pending: Unschedulable"),
                "broken-dgd-0-decode-creating": ("pod", "skipped", "ContainerCreating"),
                "broken-dgd-0-decode-nosh": ("exec", "skipped", 'no sh in container "main"'),
                "broken-dgd-0-decode-hang": ("exec", "skipped", "timed out after 3s"),
                "broken-dgd-0-decode-forbidden": ("exec", "skipped", "pods/exec not allowed"),
            }
            for pod, (name, status, text) in want.items():
                ch = first(doc, pod)
                self.assertEqual((ch["name"], ch["status"]), (name, status), pod)
                self.assertIn(text, ch["detail"], pod)
            self.assertEqual(first(doc, "broken-dgd-0-decode-ok")["status"], "ok")
            nomain = [t for t in doc["targets"] if t["name"] == "broken-dgd-0-decode-nomain"][0]
            self.assertEqual([ch for ch in nomain["checks"] if ch["name"] == "ports"][0]["status"], "ok")
            self.assertEqual(doc["verdict"]["status"], "blocked")
            self.assertEqual(rc, 2)
            self.assertEqual(harness.only_reads(c.request_log()), [])

    def test_output_lost_on_the_way_is_fetched_again(self):
        # kubectl can exit 0 with stdout cut short (kubernetes#124571): the probe is read-only, so
        # it runs once more; cut short twice, the pod says so instead of judging half its facts.
        with harness.FakeCluster("lost-output") as c:
            rc, out, err, _ = c.run_plugin("1.31", ["node", "--deployment", "lossy", "-o", "json"])
            doc = doc_of(self, out, err)
            once = [t for t in doc["targets"] if t["name"] == "lossy-0-decode-once"][0]
            self.assertEqual([ch for ch in once["checks"] if ch["name"] == "probe"], [])
            self.assertEqual({ch["name"]: ch["status"] for ch in once["checks"]}["ports"], "ok")
            ch = first(doc, "lossy-0-decode-twice")
            self.assertEqual((ch["name"], ch["status"]), ("probe", "skipped"))
            self.assertIn("cut short, twice (kubernetes/kubernetes#124571)", ch["detail"])
            execs = [r for r in c.request_log() if r["path"].endswith("/exec")]
            self.assertEqual(len(execs), 4)  # each pod twice

    def test_memlock_64k_exec(self):
        with harness.FakeCluster("node-memlock-64k") as c:
            rc, out, err, _ = c.run_plugin("1.30", ["node", "--pod", "node-memlock-64k-0-decode-a", "-o", "json"])
            ch = [x for x in doc_of(self, out, err)["targets"][0]["checks"] if x["name"] == "memlock"][0]
            self.assertEqual(ch["status"], "fail")
            self.assertIn("memlock 64 KiB and no effective CAP_IPC_LOCK", ch["detail"])
            self.assertEqual(rc, 2)

    def test_huge_output_reported_not_crashing(self):
        with harness.FakeCluster("huge-output") as c:
            rc, out, err, secs = c.run_plugin("1.32", ["node", "--deployment", "huge", "-o", "json"])
            doc = doc_of(self, out, err)
            self.assertEqual(first(doc, "huge-0-vllmprefillworker-ok")["status"], "ok")
            big = first(doc, "huge-0-vllmprefillworker-big")
            self.assertEqual((big["name"], big["status"]), ("probe", "skipped"))
            self.assertEqual(rc, 2)  # the big pod's missing facts do not hide the other's
            self.assertLess(secs, 30)

    def test_huge_output_names_the_cap(self):
        with harness.FakeCluster("huge-output") as c:
            rc, out, err, secs = c.run_plugin("1.32", ["node", "--pod", "huge-0-vllmprefillworker-big", "-o", "json"])
            doc = doc_of(self, out, err)
            self.assertIn("probe output exceeded the 4 MiB cap", first(doc, "huge-0-vllmprefillworker-big")["detail"])
            # Facts cut off are unknown, never absent: no "no RDMA device", no peermem verdict.
            checks = {c["name"]: c for t in doc["targets"] for c in t["checks"]}
            self.assertEqual(checks["hca"]["status"], "skipped")
            self.assertEqual(checks["peer-memory"]["status"], "skipped")
            self.assertFalse([c for c in checks.values() if "no RDMA device" in c["detail"]])
            self.assertNotIn("no RDMA device", doc["targets"][0].get("summary", ""))

    def test_api_server_unreachable_says_it_once(self):
        # kubectl retries discovery up to five times, each retry a klog line, before its own
        # message; the user reads that message alone.
        with harness.FakeCluster("healthy-h100-ib") as c:
            for v in harness.KUBECTL_VERSIONS:
                with self.subTest(kubectl=v):
                    rc, out, err, _ = c.run_plugin(v, ARGS + ["--server", "http://127.0.0.1:1"])
                    self.assertEqual((rc, out), (3, ""))
                    self.assertEqual(err.strip().splitlines(), [
                        "error: The connection to the server 127.0.0.1:1 was refused - "
                        "did you specify the right host or port?"])

    def test_kubectl_missing(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            rc, out, err, _ = c.run_plugin("1.32", ARGS, env={"DYNAMO_ICHECK_KUBECTL": "kubectl-not-installed"})
            self.assertIn('could not run "kubectl-not-installed": not found on PATH', err)
            self.assertEqual(rc, 3)


class TestFanout(unittest.TestCase):
    def test_32_pods_in_parallel(self):
        with harness.FakeCluster("fanout-32") as c:
            rc, out, err, secs = c.run_plugin("1.32", ["node", "--deployment", "fanout", "--parallel", "16", "-o", "json"])
            doc = doc_of(self, out, err)
            self.assertEqual(len(doc["targets"]), 32)
            self.assertTrue(all(first(doc, t["name"])["status"] == "ok" for t in doc["targets"]))
            execs = [r for r in c.request_log() if r["path"].endswith("/exec")]
            self.assertEqual(len(execs), 32)
            # Every exec waits 200 ms before its command starts, so execs run one after another
            # arrive at least 200 ms apart: two arrivals inside one 200 ms window prove they
            # overlapped. Arrival times, not wall time: a loaded CI machine slows both alike
            # (the speed figure lives in bench/).
            at = sorted(r["time"] for r in execs)
            in_window = max(sum(1 for t in at[i:] if t - at[i] < 0.2) for i in range(len(at)))
            self.assertGreaterEqual(in_window, 2, "execs never overlapped: %r" % at)
            print("\n  32 pods at --parallel 16: %.2fs, up to %d execs started within 200 ms"
                  % (secs, in_window), end="")
            self.assertEqual(harness.only_reads(c.request_log()), [])


if __name__ == "__main__":
    unittest.main()
