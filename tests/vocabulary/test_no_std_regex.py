"""Text from outside the plugin (log lines, environment values, versions, API messages) is
matched in linear time (DESIGN.md): by RE2 or by hand-written scanning, never by a backtracking
engine. libstdc++'s std::regex recurses once per character and backtracks without bound (a 40 KB
UCX_TLS or a 60,000-digit timestamp crashed the plugin, issues 38/40/41), so no product source
(src/, plugin/) may include <regex> or name std::regex, boost::regex or <pcre*>.
"""
import os
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PRODUCT = ("src", "plugin")
FORBIDDEN = re.compile(
    r"#\s*include\s*<(regex|boost/x?regex[^>]*|pcre[^>]*)>"
    r"|\bstd::(\w*regex\w*|match_results|w?[cs]match|\w*sub_match)\b|\bboost::x?regex")


def offenders(text):
    """(line number, line) for each line of code (not a // comment) that uses a backtracking regex."""
    hits = []
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split("//", 1)[0]
        if FORBIDDEN.search(code):
            hits.append((number, line.strip()))
    return hits


class NoStdRegex(unittest.TestCase):
    maxDiff = None

    def test_the_scanner_sees_includes_and_uses_not_comments(self):
        self.assertTrue(offenders("#include <regex>"))
        self.assertTrue(offenders("  static const std::regex r(\"x\");"))
        self.assertTrue(offenders("std::regex_search(a, m, r)"))
        self.assertTrue(offenders("std::smatch m;"))
        self.assertTrue(offenders("std::match_results<std::string_view::const_iterator> m;"))
        self.assertTrue(offenders("for (std::sregex_iterator it(b, e, r); ...)"))
        self.assertTrue(offenders("#include <boost/regex.hpp>"))
        self.assertFalse(offenders("// a Go regexp, RE2: no look-ahead"))
        self.assertFalse(offenders("#include <re2/re2.h>"))
        self.assertFalse(offenders("std::shared_ptr<const re2::RE2> regex;"))

    def test_no_product_source_uses_a_backtracking_regex(self):
        found = []
        for top in PRODUCT:
            for folder, _, files in os.walk(os.path.join(ROOT, top)):
                for name in files:
                    if not name.endswith((".cpp", ".hpp", ".h", ".cc", ".in")):
                        continue
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8", errors="replace") as f:
                        for number, line in offenders(f.read()):
                            found.append("%s:%d: %s" % (os.path.relpath(path, ROOT), number, line))
        self.assertEqual(found, [], "use RE2 (knowledge rows) or hand-written scanning instead")


if __name__ == "__main__":
    unittest.main()
