"""What the workers already say: their own logs (current and previous container) and their pods'
events, read bounded through the same transport as the probes and judged by the signature rows
(src/knowledge/data/signatures_*.yaml), each finding in its row's layer on node, nixl and all;
a Role without pods/log gives `skipped` with the can-i command, never an error.
"""
import os
import unittest

import harness
from harness import FAIL, WARN, SKIP
from test_plugin_rbac import RBAC, role_without

DGD = ["--deployment", "logs-dgd"]
P = "logs-dgd-0-"
# pod -> {check: (layer, status)} of the findings that come from logs and events, on `node`
NODE = {
    P + "prefill-efa-mr": {"efa-mr-registration": ("gpudirect", FAIL)},
    P + "decode-nccl-socket": {"efa-cuda-p2p": ("gpudirect", FAIL), "nccl-network": ("fabric", WARN)},
    P + "decode-sriov": {"sriov-vf": ("rdma-access", FAIL)},
    P + "decode-imex": {"compute-domain": ("nvlink", WARN)},
    P + "prefill-restarted": {},
    P + "decode-healthy": {},
}
SIGNATURE_CHECKS = {c for checks in NODE.values() for c in checks} | {"mooncake-transfer", "logs"}


def signature_findings(doc):
    return {t["name"]: {c["name"]: (c["layer"], c["status"]) for c in t["checks"] if c["name"] in SIGNATURE_CHECKS}
            for t in doc["targets"]}


def check(doc, pod, name):
    return [c for t in doc["targets"] if t["name"] == pod for c in t["checks"] if c["name"] == name][0]


class WorkerLogs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = harness.FakeCluster("logs-signatures").start()

    @classmethod
    def tearDownClass(cls):
        cls.c.__exit__(None, None, None)

    def run_json(self, args, **kw):
        rc, out, err, _ = self.c.run_plugin("1.31", args + DGD + ["-o", "json"], **kw)
        return rc, harness.json_doc(self, rc, out, err), out, err

    def test_node_finds_each_failure_in_its_layer_with_its_evidence(self):
        rc, doc, out, err = self.run_json(["node"])
        self.assertEqual(signature_findings(doc), NODE, err)
        self.assertEqual((doc["verdict"]["status"], doc["verdict"]["layer"]), ("blocked", "rdma-access"))
        self.assertEqual(rc, 2)
        mr = check(doc, P + "prefill-efa-mr", "efa-mr-registration")["detail"]
        self.assertIn('; log, current container, 2026-12-03T11:00:01.000001000Z: "libfabric::efa:mr:efa_mr_reg_impl():893'
                      '<warn> Unable to register MR of 11279546368 bytes: Bad address, flags 0"', mr)
        self.assertIn("(ofiwg/libfabric #12019)", mr)
        sriov = check(doc, P + "decode-sriov", "sriov-vf")["detail"]
        self.assertIn("event Warning FailedCreatePodSandBox ×12, 2026-12-03T10:04:31Z:", sriov)
        self.assertIn('GUID is not valid', sriov)
        # a line no row knows is never shown, and what is shown is masked
        self.assertNotIn("s3cr3t-in-a-log-line", out)
        self.assertNotIn("hf_FAKEfake", out)

    def test_what_was_read_is_in_the_facts_and_no_row_is_a_green(self):
        _, doc, _, err = self.run_json(["node"])
        logs = {t["name"]: t["facts"].get("logs") for t in doc["targets"]}
        healthy = logs[P + "decode-healthy"]
        self.assertGreater(healthy["current"]["lines"], 5, err)
        self.assertEqual((healthy["events"], healthy["signatures"]), (0, 0))
        self.assertEqual(logs[P + "prefill-restarted"]["previous"]["lines"], 1)
        self.assertNotIn("previous", healthy)  # it never restarted: not asked
        self.assertNotIn("current", logs[P + "decode-sriov"])  # ContainerCreating: no log yet
        self.assertEqual(logs[P + "decode-sriov"]["events"], 2)
        statuses = {c["status"] for t in doc["targets"] for c in t["checks"] if c["name"] in SIGNATURE_CHECKS}
        self.assertNotIn("ok", statuses)

    def test_nixl_finds_the_mooncake_session_in_the_previous_container(self):
        _, doc, _, err = self.run_json(["nixl"])
        found = signature_findings(doc)
        self.assertEqual(found[P + "prefill-restarted"], {"mooncake-transfer": ("nixl", FAIL)}, err)
        detail = check(doc, P + "prefill-restarted", "mooncake-transfer")["detail"]
        self.assertIn("; log, previous container, 2026-12-03T10:00:00.000000000Z: \"", detail)
        self.assertIn("remote mooncake session 10.99.91.49:15295 is not alive", detail)
        # node's layers are not nixl's
        self.assertEqual(found[P + "prefill-efa-mr"], {}, err)

    def test_reads_are_bounded_gets_through_the_proxy_never_followed(self):
        before = len(self.c.request_log())
        self.run_json(["node"])
        log = self.c.request_log()[before:]
        logs = [r for r in log if r["path"].endswith("/log")]
        events = [r for r in log if r["path"].endswith("/events")]
        self.assertEqual(sorted((r["path"].split("/")[6], r["query"].get("previous", ["false"])[0]) for r in logs),
                         sorted([(P + "prefill-efa-mr", "false"), (P + "decode-nccl-socket", "false"),
                                 (P + "prefill-restarted", "false"), (P + "prefill-restarted", "true"),
                                 (P + "decode-healthy", "false")]))
        for r in logs:
            self.assertEqual(r["method"], "GET")
            self.assertEqual((r["query"]["tailLines"], r["query"]["limitBytes"], r["query"]["timestamps"]),
                             (["2000"], ["524288"], ["true"]))
            self.assertNotIn("follow", r["query"])
            self.assertEqual(r["ua"], "kubectl-dynamo_icheck")
        self.assertEqual(sorted(r["query"]["fieldSelector"][0] for r in events),
                         sorted("involvedObject.name=" + p for p in NODE))

    def test_the_kubectl_transport_reads_the_same(self):
        _, doc, _, err = self.run_json(["node"], env={"DYNAMO_ICHECK_TRANSPORT": "kubectl"})
        self.assertEqual(signature_findings(doc), NODE, err)


class WithoutLogAccess(unittest.TestCase):
    def test_a_role_without_pods_log_skips_naming_the_verb_and_the_can_i(self):
        role = role_without("pods/log")
        try:
            with harness.FakeCluster("logs-signatures", rbac=role) as c:
                rc, out, err, _ = c.run_plugin("1.31", ["node"] + DGD + ["-o", "json"])
        finally:
            os.unlink(role)
        doc = harness.json_doc(self, rc, out, err)
        self.assertNotEqual(doc["verdict"]["status"], "error", err)
        logs = check(doc, P + "decode-healthy", "logs")
        self.assertEqual(logs["status"], SKIP)
        self.assertIn('log not read: get pods/log not allowed for User "system:serviceaccount:dynamo:icheck-runner" '
                      'in namespace "dynamo"', logs["detail"])
        self.assertEqual(logs["next"], "kubectl --context=fake auth can-i get pods/log -n dynamo")
        # events are still read: the SR-IOV event is found
        self.assertEqual(check(doc, P + "decode-sriov", "sriov-vf")["status"], FAIL)
        self.assertIn("kubectl --context=fake auth can-i get pods/log -n dynamo", doc["verdict"]["next"] +
                      [c.get("next", "") for t in doc["targets"] for c in t["checks"]])

    def test_the_role_with_logs_and_events_reads_them(self):
        with harness.FakeCluster("logs-signatures", rbac=RBAC) as c:
            rc, out, err, _ = c.run_plugin("1.31", ["node"] + DGD + ["-o", "json"])
        doc = harness.json_doc(self, rc, out, err)
        self.assertEqual(signature_findings(doc), NODE, err)



class OfflineLogs(unittest.TestCase):
    """`kubectl dynamo-icheck logs FILE|DIR|-`: the same rows on saved logs, no cluster."""

    FIXTURES = os.path.join(harness.E2E_DIR, "..", "fixtures")

    def run_logs(self, args, input=None):
        import subprocess
        r = subprocess.run([harness.plugin_path()] + ["logs"] + args, capture_output=True, text=True,
                           input=input, timeout=120, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
        harness.check_report_output(args, r.stdout)
        return r.returncode, r.stdout, r.stderr

    def saved(self, text, name="decode-0.log"):
        import tempfile
        d = tempfile.mkdtemp(prefix="icheck-logs-")
        self.addCleanup(__import__("shutil").rmtree, d)
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
        return d, os.path.join(d, name)

    def test_a_saved_log_is_judged_with_the_pods_rows_and_contract(self):
        with open(os.path.join(self.FIXTURES, "logs/healthy/vllm-nixl-connector-startup-vllm29369.log")) as f:
            healthy = f.read().split("\n", 1)[1]
        line = ("libfabric::efa:mr:efa_mr_reg_impl():893<warn> Unable to register MR of 11279546368 bytes: "
                "Bad address, flags 0")
        _, path = self.saved(healthy + line + "\n")
        rc, out, err = self.run_logs([path, "-o", "json"])
        doc = harness.json_doc(self, rc, out, err)
        self.assertEqual((doc["mode"], rc, doc["verdict"]["status"], doc["verdict"]["layer"]),
                         ("logs", 2, "blocked", "gpudirect"))
        (t,) = doc["targets"]
        self.assertEqual((t["kind"], t["name"]), ("log", path))
        self.assertEqual([(c["name"], c["layer"], c["status"]) for c in t["checks"]],
                         [("efa-mr-registration", "gpudirect", "fail")])
        self.assertIn('; log, current container: "' + line + '"', t["checks"][0]["detail"])
        self.assertGreater(t["facts"]["logs"]["current"]["lines"], 5)

    def test_stdin_and_a_previous_container_file(self):
        line = ("[2026-02-27 15:01:51 TP4] Prefill transfer failed for request rank=4 req.rid='ca271fb6eab2421f98ac61976e6f0f34' "
                "req.bootstrap_room=6593551520068383758 with exception KVTransferError(bootstrap_room=6593551520068383758): "
                "Decode instance could be dead, remote mooncake session 10.99.91.49:15295 is not alive\n")
        rc, out, err = self.run_logs(["-", "-o", "json"], input=line)
        doc = harness.json_doc(self, rc, out, err)
        (t,) = doc["targets"]
        self.assertEqual(t["name"], "-")
        self.assertEqual([(c["layer"], c["status"]) for c in t["checks"]], [("nixl", "fail")], err)
        self.assertIn("log, current container, 2026-02-27 15:01:51: \"", t["checks"][0]["detail"])
        _, path = self.saved(line, "prefill-0.previous.log")
        rc, out, err = self.run_logs([path, "-o", "json"])
        self.assertIn("log, previous container", harness.json_doc(self, rc, out, err)["targets"][0]["checks"][0]["detail"])

    def test_a_saved_events_list_and_a_folder_of_healthy_logs(self):
        rc, out, err = self.run_logs([os.path.join(self.FIXTURES, "events/sriov_guid.json"), "-o", "json"])
        doc = harness.json_doc(self, rc, out, err)
        self.assertEqual([(c["name"], c["layer"], c["status"]) for c in doc["targets"][0]["checks"]],
                         [("sriov-vf", "rdma-access", "fail")], err)
        rc, out, err = self.run_logs([os.path.join(self.FIXTURES, "logs/healthy"), "-o", "json"])
        doc = harness.json_doc(self, rc, out, err)
        self.assertGreaterEqual(len(doc["targets"]), 7)
        for t in doc["targets"]:
            self.assertEqual(t["checks"], [], t["name"])  # no signature, and never an ok
            self.assertIn("no known signature", t["summary"])
        self.assertIn("a saved log shows only what it says", " ".join(doc["verdict"]["limitations"]))
        # nothing judged is never a green: unknown never concludes
        self.assertEqual((rc, doc["verdict"]["status"]), (1, "unconfirmed"), err)

    def test_a_path_that_cannot_be_read_is_an_error_and_the_help_names_the_command(self):
        rc, out, err = self.run_logs(["/nonexistent/icheck.log"])
        self.assertEqual(rc, 3, out + err)
        rc, out, err = self.run_logs(["--help"])
        self.assertEqual(rc, 0)
        self.assertIn("FILE|DIR|-", out)


class HungKubelet(unittest.TestCase):
    """A kubelet that never answers GET pods/log: the pod's reads share one deadline."""

    def test_a_hung_log_costs_one_deadline_and_the_events_still_judge(self):
        with harness.FakeCluster("logs-hang") as c:
            rc, out, err, _ = c.run_plugin("1.31", ["node", "--deployment", "logs-hang", "-n", "dynamo",
                                                    "--timeout", "3s", "-o", "json"], timeout=120)
            log = c.request_log()
        doc = harness.json_doc(self, rc, out, err)
        logs = check(doc, "logs-hang-0-decode", "logs")
        self.assertEqual(logs["status"], SKIP, err)
        self.assertEqual(logs["detail"], "log not read: no answer before the deadline")
        reads = [r["path"].rsplit("/", 1)[1] for r in log if r["path"].endswith(("/log", "/events"))]
        # events first (the API server answers them); the current log hangs; the previous log,
        # which the restart asks for, is never asked: the pod's read deadline was spent
        self.assertEqual(reads, ["events", "log"], [r["path"] for r in log])
        facts = [t for t in doc["targets"] if t["name"] == "logs-hang-0-decode"][0]["facts"]["logs"]
        self.assertEqual(facts["events"], 1)
        self.assertNotEqual(doc["verdict"]["status"], "error", err)


if __name__ == "__main__":
    unittest.main()
