#include "probe/script_compact.hpp"

#include <doctest/doctest.h>

using icheck::probe::compact_script;

TEST_CASE("compact_script drops comment and blank lines and indentation outside quotes") {
  CHECK(compact_script("# a comment\n\n  begin x   # why\n\tend x 0\n   # indented comment\n") ==
        "begin x   # why\nend x 0\n");
  // ${#v}, $# and a # inside a word are not comments
  CHECK(compact_script("  printf '%s' \"${#v}\" $# a#b\n") == "printf '%s' \"${#v}\" $# a#b\n");
}

TEST_CASE("compact_script keeps every line inside a quoted string byte for byte") {
  const std::string py = "  bounded python3 -c 'import os\n"
                         "# a python comment line\n"
                         "    say(\"#\\n# Memory domain\")\n"
                         "\n"
                         "' </dev/null\n"
                         "  done\n";
  CHECK(compact_script(py) == "bounded python3 -c 'import os\n"
                              "# a python comment line\n"
                              "    say(\"#\\n# Memory domain\")\n"
                              "\n"
                              "' </dev/null\n"
                              "done\n");
  CHECK(compact_script("x=\"a\n  # not a comment\n\"\n  y=1\n") ==
        "x=\"a\n  # not a comment\n\"\ny=1\n");
  // $(...) with its own "..." inside "..." on one line leaves the state right
  CHECK(compact_script("  a=\"$(cd -P \"$d\" && pwd -P)\"\n  # c\n  b=2") ==
        "a=\"$(cd -P \"$d\" && pwd -P)\"\nb=2");
  // an apostrophe in a trailing comment opens no string
  CHECK(compact_script("  T=20  # it's bounded\n  # c\n  x=1\n") == "T=20  # it's bounded\nx=1\n");
  // escaped quotes outside strings open none
  CHECK(compact_script("  case $l in *\\'\"cuda\"\\'*) c=1 ;; esac\n  # c\n") ==
        "case $l in *\\'\"cuda\"\\'*) c=1 ;; esac\n");
}

TEST_CASE("compact_script keeps a line a backslash continues whole") {
  CHECK(compact_script("  for c in a b\\\n      c; do\n    echo $c\n  done\n") ==
        "for c in a b\\\n      c; do\necho $c\ndone\n");
  // an escaped backslash ends the line
  CHECK(compact_script("  echo a\\\\\n    echo b\n") == "echo a\\\\\necho b\n");
}
