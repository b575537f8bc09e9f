"""Help and usage errors as golden files: the exact text a user reads for `--help`, `options` and
each kind of command-line mistake. Only help, usage and error text here, never check tables, so a
new check does not move a golden file.

When the help changes on purpose: ICHECK_UPDATE_GOLDEN=1 python3 -m unittest test_help, then
read the diff of tests/cli/golden/ before committing it.
"""
import os
import re
import unittest

from test_cli import run

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
UPDATE = os.environ.get("ICHECK_UPDATE_GOLDEN") == "1"

PAGES = {
    "help.txt": [],
    "env-help.txt": ["env", "--help"],
    "node-help.txt": ["node", "--help"],
    "nixl-help.txt": ["nixl", "--help"],
    "all-help.txt": ["all", "--help"],
    "logs-help.txt": ["logs", "--help"],
    "version-help.txt": ["version", "--help"],
    "options.txt": ["options"],
}

# One line per kind of mistake; the file holds the command line and what it prints on stderr.
MISTAKES = [
    ["node", "--bogus"],
    ["node", "-x"],
    ["-o", "json", "node"],
    ["node", "-o", "xml"],
    ["node", "--timeout"],
    ["node", "--timeout", "soon"],
    ["node", "--parallel", "2000"],
    ["nixl", "--pairs", "some"],
    ["env"],
    ["env", "a", "b"],
    ["node", "mypod"],
    ["env", "x", "--pod", "p"],
    ["version", "--local"],
    ["nod"],
]


def compare(test, name, text):
    path = os.path.join(GOLDEN, name)
    if UPDATE:
        with open(path, "w") as f:
            f.write(text)
    with open(path) as f:
        test.assertEqual(text, f.read(), "%s differs; see the module's docstring" % name)


class Golden(unittest.TestCase):
    def test_pages(self):
        for name, args in PAGES.items():
            with self.subTest(page=name):
                rc, out, err = run(*args)
                self.assertEqual((rc, err), (0, ""))
                compare(self, name, out)

    def test_mistakes(self):
        text = ""
        for args in MISTAKES:
            rc, out, err = run(*args)
            self.assertEqual((rc, out), (3, ""), args)
            text += "$ kubectl dynamo-icheck %s\n%s" % (" ".join(args), err)
        compare(self, "mistakes.txt", text)


class Shape(unittest.TestCase):
    """What every page keeps, golden files or not."""

    def pages(self):
        return {name: run(*args)[1] for name, args in PAGES.items()}

    def test_fits_80_columns_without_parser_type_tags(self):
        for name, text in self.pages().items():
            with self.subTest(page=name):
                for line in text.splitlines():
                    self.assertLessEqual(len(line), 80, line)
                for tag in ("TEXT", "UINT", "INT ", "{true}", ":{", "in [", "REQUIRED", "Excludes"):
                    self.assertNotIn(tag, text)

    def test_every_flag_once_with_its_default(self):
        for name, text in self.pages().items():
            with self.subTest(page=name):
                flags = re.findall(r"^    (?:-\w, )?(--[\w-]+)=(\S*):$", text, re.M)
                names = [f for f, _ in flags]
                self.assertEqual(len(names), len(set(names)), names)
                self.assertEqual(names, sorted(names))
                for flag, default in flags:
                    self.assertTrue(default, flag)

    def test_kubernetes_flags_only_under_options(self):
        pages = self.pages()
        self.assertIn("\n    -n, --namespace='':\n", pages["options.txt"])
        self.assertIn("\n    --kubeconfig='':\n", pages["options.txt"])
        for name, text in pages.items():
            if name != "options.txt":
                self.assertNotIn("--kubeconfig", text, name)
                self.assertIn('Use "kubectl dynamo-icheck options"', text, name)

    def test_checking_commands_list_exit_codes(self):
        pages = self.pages()
        for name in ("help.txt", "env-help.txt", "node-help.txt", "nixl-help.txt", "all-help.txt"):
            for code in ("\n  0 ", "\n  1 ", "\n  2 ", "\n  3 ", "\n  128+N "):
                self.assertIn(code, "\n" + pages[name].split("Exit codes:\n", 1)[1], name)
        self.assertNotIn("Exit codes:", pages["version-help.txt"])

    def test_help_flag_is_the_bare_page(self):
        self.assertEqual(run("--help")[1], run()[1])
        self.assertEqual(run("-h")[1], run()[1])


if __name__ == "__main__":
    unittest.main()
