"""Every way a real server ends an exec stream after the status frame (issue 27): the polite
close handshake, the close frame then the connection closed at once (Go's x/net/websocket), FIN
without a close frame, and a reset. The status ends the exec: 48 healthy pods at --parallel 4,
16 and 64 lose no pod on the default transport (one kubectl proxy, our WebSocket client),
whichever ending the server uses (--parallel 1, one stream at a time, took half the module's
time and met no ordering the others do not). Every other module meets all four endings in turn (the fake
server's default, "rotate")."""
import os
import unittest

import harness
from fakeapi.server import ENDINGS

SCENARIO = "fanout-48"
PODS = 48
# The sanitizer pass (tools/test-sanitize.sh) sets one value: each ending's code paths under
# ASan, without running the fan-out three times over.
PARALLEL = [int(p) for p in os.environ.get("ICHECK_ENDINGS_PARALLEL", "4 16 64").split()]


def lost_pods(doc):
    """Pods whose probe did not come back whole: any check that says the exec or stream failed,
    or a pod without its fabric ports judged."""
    lost = {}
    for t in doc["targets"]:
        checks = {c["name"]: c for c in t["checks"]}
        ports = checks.get("ports", {}).get("status")
        if ports != "ok":
            lost[t["name"]] = [(c["name"], c["status"], c["detail"]) for c in t["checks"]
                               if c["status"] != "ok"][:2]
    return lost


class TestEndings(unittest.TestCase):
    def test_no_pod_lost_whatever_the_server_does_after_the_status(self):
        v = harness.KUBECTL_VERSIONS[-1]
        for ending in ENDINGS:
            with harness.FakeCluster(SCENARIO, server_env={"FAKEAPI_EXEC_ENDING": ending}) as c:
                for parallel in PARALLEL:
                    with self.subTest(ending=ending, parallel=parallel):
                        rc, out, err, _ = c.run_plugin(
                            v, ["node", "--deployment", "fanout48", "-o", "json",
                                "--parallel", str(parallel), "--transport", "proxy"], timeout=300)
                        doc = harness.json_doc(self, rc, out, err)
                        self.assertEqual(len(doc["targets"]), PODS)
                        self.assertEqual(lost_pods(doc), {}, err[-2000:])
                        self.assertEqual(doc["verdict"]["status"], "surface-ok", err[-2000:])
                        self.assertNotIn("note:", err)  # no pod fell back to kubectl exec

    def test_kubectl_transport_keeps_every_whole_probe(self):
        """The same world on one kubectl exec per pod. kubectl reads the endings with a close
        frame; after FIN or a reset it drops the status and exits 1 ("error reading from error
        stream ... 1006"), and the plugin keeps the probe whose own end marker (with the run's
        nonce) arrived: the output is whole."""
        v = harness.KUBECTL_VERSIONS[-1]
        for ending in ENDINGS:
            with harness.FakeCluster(SCENARIO, server_env={"FAKEAPI_EXEC_ENDING": ending}) as c:
                with self.subTest(ending=ending):
                    rc, out, err, _ = c.run_plugin(
                        v, ["node", "--deployment", "fanout48", "-o", "json", "--parallel", "16",
                            "--transport", "kubectl"], timeout=300)
                    doc = harness.json_doc(self, rc, out, err)
                    self.assertEqual(lost_pods(doc), {}, err[-2000:])


if __name__ == "__main__":
    unittest.main()
