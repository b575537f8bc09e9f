"""The README as a newcomer reads it: the answer on the first screen (what it is, how to install,
one command, what it prints, the exit codes), no link that leaves the repository, and every
path it names present in it. The details live in docs/, each linked from the README.
"""
import os
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRST_SCREEN = 45  # lines


def readme():
    with open(os.path.join(ROOT, "README.md")) as f:
        return f.read()


class Readme(unittest.TestCase):
    def test_first_screen_is_the_answer(self):
        head = "\n".join(readme().splitlines()[:FIRST_SCREEN])
        self.assertIn("## Quickstart", head)
        self.assertRegex(head, r"tools/install\.sh|kubectl krew install")
        self.assertRegex(head, r"\nkubectl dynamo-icheck \w+")
        self.assertIn("VERDICT  ", head)  # a sample of what it prints
        for code in ("0 ", "1 ", "2 ", "3 "):
            self.assertIn("Exit codes", head)
            self.assertRegex(head, r"Exit codes[\s\S]*\b%s" % code.strip())

    def test_no_link_leaves_the_repository(self):
        self.assertEqual(re.findall(r"https?://\S+", readme()), [])
        self.assertNotIn("../", readme())

    def test_every_linked_or_named_path_exists(self):
        text = readme()
        links = re.findall(r"\]\(([^)#]+)", text)
        named = re.findall(r"\b((?:docs|tests|tools|deploy|krew-manifest|plugin|bench)/[\w./-]+\w)", text)
        self.assertTrue(links)
        for path in links + named:
            with self.subTest(path=path):
                self.assertTrue(os.path.exists(os.path.join(ROOT, path)), path)

    def test_docs_are_linked(self):
        text = readme()
        for name in os.listdir(os.path.join(ROOT, "docs")):
            self.assertIn("docs/" + name, text, name)


if __name__ == "__main__":
    unittest.main()
