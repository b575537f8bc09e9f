#include "util/join.hpp"

#include <doctest/doctest.h>

using icheck::join_first;

TEST_CASE("join_first names the first items and how many more there were") {
  CHECK(join_first({"a", "b", "c", "d", "e"}, 3) == "a, b, c and 2 more");
  CHECK(join_first({"a", "b"}, 3) == "a, b");
  CHECK(join_first({}, 3).empty());
  const std::vector<std::string> many(300000, "(no kind)/");
  CHECK(join_first(many, 10).size() < 200);
  CHECK(join_first(many, 10).ends_with("(no kind)/ and 299990 more"));
}
