"""Completion through the real kubectl: `kubectl __complete dynamo-icheck ...` (what the shell
asks kubectl >= 1.26 on TAB) runs kubectl_complete-dynamo_icheck from PATH, which answers with
names read from the cluster: namespaces, DynamoGraphDeployments, worker pods.
"""
import unittest

import harness

WORKERS = ["llama-70b-disagg-0-vllmdecodeworker-b8w3c", "llama-70b-disagg-0-vllmdecodeworker-r2n6d",
           "llama-70b-disagg-0-vllmprefillworker-7xk2p", "llama-70b-disagg-0-vllmprefillworker-m4q9z"]


class TestCompletion(unittest.TestCase):
    def complete(self, c, version, *words):
        rc, out, err, _ = c.kubectl(version, ["__complete", "dynamo-icheck", *words])
        self.assertEqual(rc, 0, err)
        lines = out.splitlines()
        self.assertRegex(lines[-1], r"^:\d+$")
        return lines[:-1]

    def test_words_and_cluster_names(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            for v in harness.KUBECTL_VERSIONS:
                with self.subTest(kubectl=v):
                    self.assertEqual(self.complete(c, v, "nod"), ["node"])
                    self.assertEqual(self.complete(c, v, "node", "-o", ""), ["table", "wide", "json", "yaml"])
                    self.assertEqual(self.complete(c, v, "nixl", "--pairs", ""), ["cover", "all"])
                    self.assertIn("dynamo", self.complete(c, v, "node", "-n", ""))
                    self.assertEqual(self.complete(c, v, "node", "--deployment", "ll"), ["llama-70b-disagg"])
                    pods = self.complete(c, v, "node", "--deployment", "llama-70b-disagg", "--pod", "")
                    self.assertEqual(sorted(pods), WORKERS)
                    self.assertEqual(self.complete(c, v, "nixl", "--pod", "llama-70b-disagg-0-vllmp"), WORKERS[2:])
            self.assertEqual(harness.only_reads(c.request_log()), [])

    def test_names_from_the_namespace_on_the_line(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            self.assertEqual(self.complete(c, "1.31", "node", "-n", "elsewhere", "--deployment", ""), [])
            self.assertEqual(self.complete(c, "1.31", "node", "-n=dynamo", "--deployment", ""),
                             ["llama-70b-disagg", "other-dgd"])


if __name__ == "__main__":
    unittest.main()
