"""deploy/rbac.yaml is enough and every rule in it is needed: the fake API server enforces a
Role's rules (fakeapi --rbac) with the apiserver's 403 Status bodies, and the plugin runs through
the real kubectl with exactly deploy/rbac.yaml, then with one rule taken away.
"""
import os
import tempfile
import unittest

import yaml

import harness

RBAC = os.path.join(harness.E2E_DIR, "..", "..", "deploy", "rbac.yaml")
ARGS = ["node", "--deployment", "llama-70b-disagg"]


def role_without(resource):
    """deploy/rbac.yaml's Role less the rule on `resource`, written to a temp file."""
    with open(RBAC) as f:
        docs = list(yaml.safe_load_all(f))
    role = [d for d in docs if d["kind"] == "Role"][0]
    role["rules"] = [r for r in role["rules"] if resource not in r["resources"]]
    f = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False)
    yaml.safe_dump(role, f)
    f.close()
    return f.name


class TestRbac(unittest.TestCase):
    def test_role_grants_only_reads_and_exec(self):
        with open(RBAC) as f:
            docs = list(yaml.safe_load_all(f))
        self.assertEqual(sorted(d["kind"] for d in docs), ["Role", "RoleBinding"])
        rules = {(g, r): sorted(rule["verbs"]) for rule in docs[0]["rules"]
                 for g in rule["apiGroups"] for r in rule["resources"]}
        self.assertEqual(rules, {("", "pods"): ["get", "list"],
                                 ("", "pods/exec"): ["create", "get"],
                                 ("", "pods/log"): ["get"],
                                 ("", "events"): ["list"],
                                 ("nvidia.com", "dynamographdeployments"): ["get", "list"]})

    def test_exactly_the_role_is_enough(self):
        with harness.FakeCluster("healthy-h100-ib", rbac=RBAC) as c:
            for v in harness.KUBECTL_VERSIONS:
                with self.subTest(kubectl=v):
                    rc, out, err, _ = c.run_plugin(v, ARGS + ["-o", "json"])
                    doc = harness.json_doc(self, rc, out, err)
                    self.assertEqual(doc["verdict"]["status"], "surface-ok", err)
                    self.assertEqual(rc, 0)
            self.assertEqual(harness.only_reads(c.request_log()), [])

    def test_without_exec_each_pod_says_what_is_missing(self):
        with harness.FakeCluster("healthy-h100-ib", rbac=role_without("pods/exec")) as c:
            rc, out, err, _ = c.run_plugin("1.31", ARGS + ["-o", "json"])
            doc = harness.json_doc(self, rc, out, err)
            self.assertEqual(len(doc["targets"]), 4)
            for t in doc["targets"]:
                exec_check = t["checks"][0]
                self.assertEqual((exec_check["name"], exec_check["status"]), ("exec", "skipped"))
                self.assertIn('pods/exec not allowed for User "system:serviceaccount:dynamo:icheck-runner" '
                              'in namespace "dynamo"', exec_check["detail"])
            self.assertIn("kubectl --context=fake auth can-i create pods/exec -n dynamo", doc["verdict"]["next"])
            self.assertEqual((doc["verdict"]["status"], rc), ("unconfirmed", 1))

    def test_without_pods_it_stops_and_names_the_role(self):
        with harness.FakeCluster("healthy-h100-ib", rbac=role_without("pods")) as c:
            rc, out, err, _ = c.run_plugin("1.31", ARGS)
            self.assertEqual(rc, 3)
            self.assertIn('Error from server (Forbidden): pods is forbidden: User '
                          '"system:serviceaccount:dynamo:icheck-runner" cannot list resource "pods" '
                          'in API group "" in the namespace "dynamo"', err)
            self.assertIn('needs get and list on pods and create and get on pods/exec in namespace '
                          '"dynamo": deploy/rbac.yaml is that Role; check with: kubectl auth can-i '
                          'list pods -n dynamo', err)


if __name__ == "__main__":
    unittest.main()
