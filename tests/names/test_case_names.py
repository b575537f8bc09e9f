"""doctest case names are CTest test names (doctest_discover_tests): a ';' splits one into a CMake
list, and CTest then runs a filter that selects no case, so the test passes without running.
Brackets and commas are escaped by doctest_discover_tests and select their case."""
import glob
import os
import re
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unit")
NAME = re.compile(r'(?:TEST_CASE|SUBCASE)\(\s*"((?:[^"\\]|\\.)*)"', re.S)


class CaseNames(unittest.TestCase):
    def test_no_case_name_holds_a_character_ctest_or_doctest_splits_on(self):
        bad = []
        files = glob.glob(os.path.join(ROOT, "**", "*.cpp"), recursive=True)
        self.assertGreater(len(files), 50)
        for path in files:
            with open(path, encoding="utf-8") as f:
                for name in NAME.findall(f.read()):
                    if ";" in name:
                        bad.append("%s: %s" % (os.path.relpath(path, ROOT), name))
        self.assertEqual(bad, [])


if __name__ == "__main__":
    unittest.main()
