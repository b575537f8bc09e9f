#include "outside/text.hpp"

#include <doctest/doctest.h>

using icheck::outside::is_terminal_safe;
using icheck::outside::terminal_safe;
using icheck::outside::valid_utf8;

TEST_CASE("terminal: escapes that act on a terminal become visible text") {
  // OSC 52 (clipboard write), OSC 0 (window title), clear screen, BEL.
  CHECK(terminal_safe("mlx5_0\x1b]52;c;ZWNobyBoaQ==\x07") == "mlx5_0\\x1b]52;c;ZWNobyBoaQ==\\x07");
  CHECK(terminal_safe("\x1b]0;pwned\x1b\\") == "\\x1b]0;pwned\\x1b\\");
  CHECK(terminal_safe("H100\x1b[2J\x1b[H") == "H100\\x1b[2J\\x1b[H");
  CHECK(terminal_safe("a\nb\tc\rd\x7f") == "a\\nb\\tc\\rd\\x7f");
}

TEST_CASE("terminal: C1 controls and bidirectional overrides are escaped, other text kept") {
  CHECK(terminal_safe("\xc2\x9b"
                      "2J") == "\\u009b2J"); // CSI as a C1 code point
  CHECK(terminal_safe("\xc2\x9d"
                      "52;c;x") == "\\u009d52;c;x"); // OSC
  CHECK(terminal_safe("abc\xe2\x80\xae"
                      "fed") == "abc\\u202efed");
  CHECK(terminal_safe("8× H100 · 400 Gb/s – ok") == "8× H100 · 400 Gb/s – ok");
  CHECK(terminal_safe("") == "");
}

TEST_CASE("terminal: invalid UTF-8 bytes, raw C1 bytes included, become \\xNN") {
  CHECK(terminal_safe("gpu\x9b"
                      "2J") == "gpu\\x9b2J");
  CHECK(terminal_safe("\xff\xfe") == "\\xff\\xfe");
  CHECK(terminal_safe("\xc0\xaf") == "\\xc0\\xaf");                   // overlong '/'
  CHECK(terminal_safe("\xed\xa0\x80") == "\\xed\\xa0\\x80");          // a surrogate
  CHECK(terminal_safe("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80"); // past U+10FFFF
  CHECK(terminal_safe("cut \xe2\x80") == "cut \\xe2\\x80");           // cut short
}

TEST_CASE("document: valid UTF-8 stays exact, control characters included") {
  CHECK(valid_utf8("a\x1b[31mb\n") == "a\x1b[31mb\n");
  CHECK(valid_utf8("8× H100") == "8× H100");
  CHECK(valid_utf8("bad\xff") == "bad\\xff");
  CHECK(valid_utf8("\xe2\x82") == "\\xe2\\x82");
}

TEST_CASE("is_terminal_safe agrees with terminal_safe") {
  for (const char* s : {"plain", "8× H100", "a\x1b", "\xff", "\xc2\x85", "tab\t"}) {
    CHECK(is_terminal_safe(s) == (terminal_safe(s) == s));
  }
}
