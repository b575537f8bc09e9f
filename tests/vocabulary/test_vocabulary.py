"""Dynamo's transport variable names are spelled once, in src/dynamo/: no string literal (nor
probe script text) elsewhere in src/ spells one again. Comments may name them.

The names are read from src/dynamo/*.hpp (`inline constexpr std::string_view kXxxVar = "NAME"`).
"""
import os
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "src")
DYNAMO = os.path.join(SRC, "dynamo")

CONSTANT = re.compile(r'inline constexpr std::string_view k\w+(?:Var|Prefix) = "([A-Z0-9_]+)"')
LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')
RAW_OPEN = re.compile(r'R"(\w*)\(')


def vocabulary():
    names = set()
    for f in os.listdir(DYNAMO):
        if f.endswith(".hpp"):
            with open(os.path.join(DYNAMO, f)) as h:
                names.update(CONSTANT.findall(h.read()))
    return names


def spelled(text, names):
    """(line number, name) for each name inside a string literal or a raw string's body."""
    hits = []
    raw_end = None
    for number, line in enumerate(text.splitlines(), 1):
        if raw_end is not None:
            body, closed, _ = line.partition(raw_end)
            hits += [(number, n) for n in names if n in body]
            raw_end = None if closed else raw_end
            continue
        code = line
        opened = RAW_OPEN.search(code)
        if opened:
            raw_end = ")" + opened.group(1) + '"'
            rest = code[opened.end():]
            body, closed, _ = rest.partition(raw_end)
            hits += [(number, n) for n in names if n in body]
            raw_end = None if closed else raw_end
            code = code[:opened.start()]
        literals, last = [], 0
        for m in LITERAL.finditer(code):
            if "//" in code[last:m.start()]:
                break  # the rest of the line is a comment
            literals.append(m.group(0))
            last = m.end()
        hits += [(number, n) for n in names for lit in literals if n in lit]
    return hits


class Vocabulary(unittest.TestCase):
    maxDiff = None

    def test_the_scanner_sees_literals_and_raw_scripts_not_comments(self):
        text = ('auto v = env(f, "UCX_TLS");  // UCX_NET_DEVICES\n'
                "// NCCL_IB_HCA in a comment\n"
                'constexpr auto s = R"SH(\n[ -n "$NIXL_PLUGIN_DIR" ]\n)SH";\n')
        names = {"UCX_TLS", "UCX_NET_DEVICES", "NCCL_IB_HCA", "NIXL_PLUGIN_DIR"}
        self.assertEqual(sorted(spelled(text, names)), [(1, "UCX_TLS"), (4, "NIXL_PLUGIN_DIR")])

    def test_no_transport_variable_is_spelled_outside_src_dynamo(self):
        names = vocabulary()
        self.assertGreaterEqual(len(names), 10, names)
        self.assertIn("UCX_NET_DEVICES", names)
        found = []
        for folder, _, files in os.walk(SRC):
            if os.path.commonpath([folder, DYNAMO]) == DYNAMO:
                continue
            for f in files:
                if f.endswith((".cpp", ".hpp")):
                    path = os.path.join(folder, f)
                    with open(path) as h:
                        found += [f"{os.path.relpath(path, ROOT)}:{n}: {name}"
                                  for n, name in spelled(h.read(), names)]
        self.assertEqual(found, [], "use the constants of src/dynamo/ instead")


if __name__ == "__main__":
    unittest.main()
