"""The validator itself, and the schema against a real report (tests/schema/report-env.json, the
JSON `env` printed for tests/recipes/llama-3-70b/vllm/disagg-multi-node): each rule the schema
uses must reject what breaks it, or the e2e validation could never fail."""
import copy
import json
import os
import unittest

import schema_check

HERE = os.path.dirname(os.path.abspath(__file__))


def sample():
    with open(os.path.join(HERE, "report-env.json")) as f:
        return json.load(f)


class Validator(unittest.TestCase):
    def test_a_real_report_passes(self):
        self.assertEqual(schema_check.errors(sample()), [])

    def broken(self, change):
        doc = sample()
        change(doc)
        return schema_check.errors(doc)

    def test_each_rule_rejects(self):
        cases = {
            "missing required field 'verdict'": lambda d: d.pop("verdict"),
            "'dynamo-icheck/v2' is not 'dynamo-icheck/v1'": lambda d: d.update(apiVersion="dynamo-icheck/v2"),
            "'passed' is not one of": lambda d: d["targets"][0]["checks"][0].update(status="passed"),
            "does not match": lambda d: d["targets"][0]["checks"][0].update(id="kv transfer"),
            "str is not of type boolean": lambda d: d["targets"][0]["checks"][0].update(required="yes"),
            "targets[0].shiny: field not in the schema": lambda d: d["targets"][0].update(shiny=1),
            "counts.ok: -1 is below 0": lambda d: d["counts"].update(ok=-1),
            "targets[0].name: shorter than 1": lambda d: d["targets"][0].update(name=""),
            "errors[0]: int is not of type string": lambda d: d.update(errors=[7]),
            "counts.fail: bool is not of type integer": lambda d: d["counts"].update(fail=True),
        }
        for says, change in cases.items():
            with self.subTest(says=says):
                found = self.broken(change)
                self.assertTrue(any(says in e for e in found), found)

    def test_a_keyword_it_does_not_implement_is_an_error(self):
        with self.assertRaises(ValueError):
            schema_check.errors({}, {"type": "object", "maxProperties": 3})

    def test_check_report_reads_yaml_too(self):
        import yaml
        doc = sample()
        self.assertEqual(schema_check.check_report(yaml.safe_dump(doc), "yaml"), doc)
        doc["kind"] = "Other"
        with self.assertRaises(AssertionError):
            schema_check.check_report(json.dumps(doc), "json")

    def test_output_format_of_argv(self):
        for args, want in ((["node", "-o", "json"], "json"), (["node", "-ojson"], "json"),
                           (["node", "-o=yaml"], "yaml"), (["node", "--output=json"], "json"),
                           (["node", "--output", "yaml"], "yaml"), (["node", "-o", "wide"], None),
                           (["node"], None), (["node", "-o", "json", "-o", "table"], None)):
            self.assertEqual(schema_check.output_format(args), want, args)


if __name__ == "__main__":
    unittest.main()
