#include "util/percent.hpp"

#include <doctest/doctest.h>
#include <limits>

using icheck::percent_text;

TEST_CASE("percent_text rounds a real share") {
  CHECK(percent_text(84.5, 50.0) == "169");
  CHECK(percent_text(47.9, 50.0) == "96");
  CHECK(percent_text(0.0, 50.0) == "0");
}

TEST_CASE("percent_text stays defined for figures no tool measures") {
  CHECK(percent_text(1e38, 50.0) == "> 1000000"); // static_cast<int> printed a negative share
  CHECK(percent_text(-1e38, 50.0) == "< -1000000");
  CHECK(percent_text(std::numeric_limits<double>::infinity(), 50.0) == "?");
  CHECK(percent_text(std::numeric_limits<double>::quiet_NaN(), 50.0) == "?");
  CHECK(percent_text(10.0, 0.0) == "?");
  CHECK(percent_text(10.0, -1.0) == "?");
}
