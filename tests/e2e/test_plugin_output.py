"""Output a runbook can grep: -A puts a NAMESPACE column in the tables and `namespace` on every
JSON target, -o wide rows carry the pod's name, --no-headers drops the column headings."""
import unittest

import harness

ARGS = ["node", "--deployment", "llama-70b-disagg"]
POD = "llama-70b-disagg-0-vllmdecodeworker-b8w3c"


def rows(out):
    """Table rows: the lines indented under a target's heading (the verdict block's are not)."""
    tables = out.split("\nVERDICT ")[0]
    return [l.strip() for l in tables.splitlines() if l.startswith("  ")]


class TestOutput(unittest.TestCase):
    def test_all_namespaces_wide_and_no_headers(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            v = harness.KUBECTL_VERSIONS[0]
            rc, out, err, _ = c.run_plugin(v, ARGS + ["-A"])
            self.assertEqual(rc, 0, err)
            table = rows(out)
            self.assertTrue(table[0].startswith("NAMESPACE"), table[0])
            # the scenario's llama-70b-disagg has a pod in "staging" too, found only with -A
            self.assertEqual({r.split()[0] for r in table}, {"NAMESPACE", "dynamo", "staging"})

            rc, out, err, _ = c.run_plugin(v, ARGS + ["-o", "wide"])
            fails_or_oks = [r for r in rows(out) if " ok " in r]
            self.assertTrue(fails_or_oks)
            self.assertTrue(all(r.split()[0].startswith("llama-70b-disagg-0-") for r in fails_or_oks))
            self.assertIn(POD, [r.split()[0] for r in fails_or_oks])

            rc, out, err, _ = c.run_plugin(v, ARGS + ["--no-headers"])
            self.assertNotIn("LAYER", out)
            self.assertIn("VERDICT", out)

            rc, out, err, _ = c.run_plugin(v, ARGS + ["-A", "-o", "json"])
            doc = harness.json_doc(self, rc, out, err)
            self.assertEqual({t["namespace"] for t in doc["targets"]}, {"dynamo", "staging"})
            rc, out, err, _ = c.run_plugin(v, ARGS + ["-o", "yaml"])
            self.assertIn("namespace: dynamo", out)


if __name__ == "__main__":
    unittest.main()
