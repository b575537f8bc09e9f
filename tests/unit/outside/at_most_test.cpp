#include "outside/text.hpp"

#include <doctest/doctest.h>

using icheck::outside::at_most;

TEST_CASE("at_most: a text that fits is whole, a longer one says how many bytes were left") {
  CHECK(at_most("abc", 3) == "abc");
  CHECK(at_most("abcdef", 4) == "abcd… (2 more bytes)");
  CHECK(at_most(std::string(5000, 'x')).size() == 2000 + std::string("… (3000 more bytes)").size());
}

TEST_CASE("at_most: never cuts inside a UTF-8 sequence") {
  // "aé" is 61 C3 A9: a cut after 2 bytes would split é.
  CHECK(at_most("a\xc3\xa9z", 2) == "a… (3 more bytes)");
  CHECK(at_most("a\xc3\xa9z", 3) == "a\xc3\xa9… (1 more bytes)");
}
