#include <doctest/doctest.h>

#include "util/duration.hpp"

using icheck::format_duration;
using icheck::parse_duration;
using ms = std::chrono::milliseconds;

TEST_CASE("duration: kubectl's spellings parse, a bare number is seconds") {
  CHECK(parse_duration("30s") == ms(30000));
  CHECK(parse_duration("500ms") == ms(500));
  CHECK(parse_duration("2m") == ms(120000));
  CHECK(parse_duration("1m30s") == ms(90000));
  CHECK(parse_duration("1h") == ms(3600000));
  CHECK(parse_duration("1.5s") == ms(1500));
  CHECK(parse_duration("45") == ms(45000));
  CHECK(parse_duration("0") == ms(0));
}

TEST_CASE("duration: anything else is refused, never thrown or wrapped") {
  for (const char* bad : {"", "s", ".s", ".", "1.2.3s", "-1s", "+1s", "1e3", "10x", "1 s", "5m3",
                          "99999999999999999999h", "9000h"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_duration(bad).has_value());
  }
}

TEST_CASE("duration: printed the way kubectl prints it") {
  CHECK(format_duration(ms(500)) == "500ms");
  CHECK(format_duration(ms(3000)) == "3s");
  CHECK(format_duration(ms(1500)) == "1.5s");
  CHECK(format_duration(ms(1250)) == "1.25s");
  CHECK(format_duration(ms(120000)) == "2m0s");
  CHECK(format_duration(ms(90000)) == "1m30s");
  CHECK(format_duration(ms(3600000)) == "1h0m0s");
  CHECK(format_duration(ms(0)) == "0ms");
}

TEST_CASE("duration: what is printed parses back to the same value") {
  for (long long v : {1LL, 999LL, 1000LL, 1001LL, 59999LL, 61500LL, 3723004LL}) {
    CAPTURE(v);
    CHECK(parse_duration(format_duration(ms(v))) == ms(v));
  }
}
