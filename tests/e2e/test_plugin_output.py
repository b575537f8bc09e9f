"""Output a runbook can grep: -A puts a NAMESPACE column in the tables, the namespace in every pod
heading and `namespace` on every JSON target; -o wide rows carry the pod's name and a check id
without blanks; --no-headers prints only data rows; JSON targets carry a status."""
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
            rc, out, err, _ = c.run_plugin(v, ARGS + ["-A", "-o", "wide"])
            self.assertEqual(rc, 0, err)
            table = rows(out)
            self.assertTrue(table[0].startswith("NAMESPACE"), table[0])
            # the scenario's llama-70b-disagg has a pod in "staging" too, found only with -A
            self.assertEqual({r.split()[0] for r in table}, {"NAMESPACE", "dynamo", "staging"})
            headings = [l for l in out.splitlines() if l.startswith("llama-70b-disagg-")]
            self.assertEqual(len(headings), 5)
            for h in headings:  # every pod heading says where the pod is
                self.assertRegex(h, r"  namespace (dynamo|staging)(  |$)")
            rc, out, err, _ = c.run_plugin(v, ARGS + ["-A"])
            grid = out.split("the worst status of each layer:\n")[1].split("\n\n")[0].splitlines()
            self.assertEqual({r.split()[0] for r in grid}, {"NAMESPACE", "dynamo", "staging"})


            rc, out, err, _ = c.run_plugin(v, ARGS + ["-o", "wide"])
            table = [r for r in rows(out) if not r.startswith("TARGET")]
            self.assertTrue(table)
            self.assertTrue(all(r.split()[0].startswith("llama-70b-disagg-0-") for r in table))
            self.assertIn(POD, [r.split()[0] for r in table])
            # TARGET LAYER CHECK STATUS: the check is one word, so the 4th field is the status
            self.assertEqual({r.split()[3] for r in table} - {"ok", "warn", "fail", "skipped"}, set())
            rc, out, err, _ = c.run_plugin(v, ["nixl"] + ARGS[1:] + ["-o", "wide"])
            checks = [r.split()[2] for r in rows(out) if not r.startswith("TARGET")]
            self.assertIn("kv-transfer", checks)  # the table's "kv transfer", as one word

            rc_full, _, _, _ = c.run_plugin(v, ARGS)
            rc, out, err, _ = c.run_plugin(v, ARGS + ["--no-headers"])
            self.assertEqual(rc, rc_full, err)
            self.assertTrue(out.splitlines())
            for line in out.splitlines():  # nothing but check rows, each naming its pod
                self.assertTrue(line.startswith("llama-70b-disagg-0-"), line)
                self.assertIn(line.split()[3], ("ok", "warn", "fail", "skipped"), line)

            rc, out, err, _ = c.run_plugin(v, ARGS + ["-A", "-o", "json"])
            doc = harness.json_doc(self, rc, out, err)
            self.assertEqual({t["namespace"] for t in doc["targets"]}, {"dynamo", "staging"})
            for t in doc["targets"]:
                worst = {c["status"] for c in t["checks"] if c["required"] or c["status"] == "fail"}
                want = next((s for s in ("fail", "warn", "skipped") if s in worst), "ok")
                self.assertEqual(t["status"], want, t["name"])
                self.assertTrue(all(" " not in c["id"] for c in t["checks"]))
            rc, out, err, _ = c.run_plugin(v, ARGS + ["-o", "yaml"])
            self.assertIn("namespace: dynamo", out)

    def test_default_view_is_the_grid_and_the_pods_not_all_ok(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            v = harness.KUBECTL_VERSIONS[0]
            rc, out, err, _ = c.run_plugin(v, ARGS, env={"COLUMNS": "200"})
            self.assertEqual(rc, 0, err)
            # 3 pods alike with every check ok, 1 with an optional skip: a grid row per kind
            self.assertIn("\n4 pods of 2 kinds, the worst status of each layer:\nPODS ", out)
            grid = out.split("the worst status of each layer:\n")[1].split("\n\n")[0].splitlines()[1:]
            rows = [r.split() for r in grid]  # PODS ROLE one status per layer
            self.assertEqual(sum(int(r[0]) for r in rows), 4)
            skipped = sum(int(r[0]) for r in rows if "skipped" in r[2:])
            all_ok = sum(int(r[0]) for r in rows if set(r[2:]) == {"ok"})
            self.assertTrue(skipped and all_ok, grid)
            rc, doc_text, err, _ = c.run_plugin(v, ARGS + ["-o", "json"])
            doc = harness.json_doc(self, rc, doc_text, err)
            against = [t["name"] for t in doc["targets"] if t["status"] != "ok"]
            # Only the kinds with something against the verdict get a table (none here); a pod
            # whose row shows an (optional) skipped cell is counted apart, never as "every check ok".
            headings = [l.split()[0] for l in out.splitlines() if l.startswith("llama-70b-disagg-0-")
                        and "  node " in l]
            self.assertEqual(headings, against)
            self.assertEqual(against, [])
            line = "%d pods have every check ok" % all_ok
            line += " and %d every required check ok but an optional one skipped or warn" % skipped
            self.assertIn(line, out)
            self.assertTrue(out.rstrip("\n").splitlines()[-2].startswith("VERDICT"), out)

            rc, wide, err, _ = c.run_plugin(v, ARGS + ["-o", "wide"])
            self.assertEqual(sum(1 for l in wide.splitlines() if l.startswith("  TARGET ")), 4)
            self.assertIn("\n4 pods, the worst status of each layer:\nPOD ", wide)  # a row per pod

    def test_detail_is_cut_to_the_terminal_width(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            v = harness.KUBECTL_VERSIONS[0]
            one = ["node", "--pod", POD]  # one pod: its table is the default view
            rc, out, err, _ = c.run_plugin(v, one + ["-o", "wide"], env={"COLUMNS": "100"})
            whole = [l for l in out.splitlines() if " transports " in l][0]
            self.assertGreater(len(whole), 100)
            rc, out, err, _ = c.run_plugin(v, one, env={"COLUMNS": "100"})
            tables = out.split("\nVERDICT")[0]
            rows = [l for l in tables.splitlines() if l.startswith("  ") and not l.startswith("  LAYER")]
            self.assertTrue(rows)
            for l in rows:
                self.assertLessEqual(len(l), 100, l)
            self.assertTrue(any(l.endswith("…") for l in rows), rows)
            rc, piped, err, _ = c.run_plugin(v, one)  # no terminal, no COLUMNS: nothing cut
            self.assertNotIn("…", piped.split("\nVERDICT")[0])


if __name__ == "__main__":
    unittest.main()
