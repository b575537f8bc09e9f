// Versions as rows compare them: dotted numbers, a suffix kept but not compared.
#include "knowledge/version.hpp"

#include <doctest/doctest.h>

using namespace icheck::knowledge;

namespace {
bool in(std::string_view v, std::string_view range) {
  auto bounds = parse_version_range(range);
  REQUIRE(bounds);
  return version_in(v, *bounds);
}
}  // namespace

TEST_CASE("version: numbers and suffixes") {
  CHECK(version_numbers("1.19.0rc1") == std::vector<long long>{1, 19, 0});
  CHECK(version_numbers("2.4.0amzn1.0") == std::vector<long long>{2, 4, 0});
  CHECK(version_numbers("v2.22.3") == std::vector<long long>{2, 22, 3});
  CHECK(version_numbers("2.21.5-1+cuda12.4") == std::vector<long long>{2, 21, 5});
  CHECK(version_numbers("535.104.05") == std::vector<long long>{535, 104, 5});
  CHECK_FALSE(version_numbers("unknown"));
  CHECK_FALSE(version_numbers(""));
}

TEST_CASE("version: ranges, each comparator") {
  CHECK(in("1.3.1", ">=1.3.0 <1.3.2"));
  CHECK_FALSE(in("1.3.2", ">=1.3.0 <1.3.2"));
  CHECK_FALSE(in("1.2.9", ">=1.3.0 <1.3.2"));
  CHECK(in("1.18", "<1.19"));  // a missing segment counts as 0
  CHECK_FALSE(in("1.19", "<1.19.0"));
  CHECK(in("2.22.3", "<=2.22.3"));
  CHECK_FALSE(in("2.23.4", "<=2.22.3"));
  CHECK(in("1.0.1", ">1.0.0"));
  CHECK_FALSE(in("1.0.0", ">1.0.0"));
  CHECK(in("2.4.0amzn1.0", "==2.4.0"));  // the suffix is not compared
  CHECK(in("1.19.0rc1", ">=1.19"));
  CHECK(in("1.2", "!=1.3"));
  CHECK_FALSE(in("1.3.0", "!=1.3"));
  CHECK_FALSE(in("unknown", "<9"));  // not a version: no bound holds
}

TEST_CASE("version: ranges that do not parse") {
  CHECK_FALSE(parse_version_range(""));
  CHECK_FALSE(parse_version_range("1.3"));    // no comparator
  CHECK_FALSE(parse_version_range("~>1.3"));  // not one we know
  CHECK_FALSE(parse_version_range(">=abc"));
  CHECK_FALSE(parse_version_range(">= 1.3"));  // a comparator without its version
}
