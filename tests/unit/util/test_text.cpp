#include <doctest/doctest.h>

#include "util/text.hpp"

namespace text = icheck::text;
using sv = std::string_view;
using svs = std::vector<std::string_view>;

TEST_CASE("text: lines drop their terminators, CRLF included, and keep blank lines") {
  CHECK(text::lines("a\r\nb\n\nc") == svs{"a", "b", "", "c"});
  CHECK(text::lines("a\n") == svs{"a"});
  CHECK(text::lines("").empty());
}

TEST_CASE("text: trim, lower, words and split") {
  CHECK(text::trim(" \t x y \r\n") == sv("x y"));
  CHECK(text::trim(" \t").empty());
  CHECK(text::lower("MLX5_0 Ib") == "mlx5_0 ib");
  CHECK(text::words("  Port 1:\tActive ") == svs{"Port", "1:", "Active"});
  CHECK(text::split("a,,b", ',') == svs{"a", "", "b"});
  CHECK(text::split("", ',') == svs{""});
}

TEST_CASE("text: key_value splits at the first colon, both sides trimmed") {
  auto kv = text::key_value("  Rate: 400 (NDR) ");
  REQUIRE(kv);
  CHECK(kv->first == sv("Rate"));
  CHECK(kv->second == sv("400 (NDR)"));
  CHECK(text::key_value("link_layer:InfiniBand:x")->second == sv("InfiniBand:x"));
  CHECK_FALSE(text::key_value("no colon").has_value());
}

TEST_CASE("text: numbers are whole or refused, leading_number takes the first") {
  CHECK(text::to_int(" 42 ") == 42);
  CHECK_FALSE(text::to_int("42x").has_value());
  CHECK_FALSE(text::to_int("").has_value());
  CHECK(text::to_hex("0x15b3") == 0x15b3u);
  CHECK(text::to_hex("1017") == 0x1017u);
  CHECK_FALSE(text::to_hex("0xzz").has_value());
  CHECK(text::leading_number("400 Gb/sec (4X NDR)") == doctest::Approx(400));
  CHECK(text::leading_number("2.5 GT/s") == doctest::Approx(2.5));
  CHECK_FALSE(text::leading_number("N/A").has_value());
  CHECK(text::contains("nvidia_peermem 16384 0", "peermem"));
}

TEST_CASE("text: upper, and a flag's value in a command line") {
  CHECK(text::upper("ucx") == "UCX");
  // tests/recipes/qwen3-235b-a22b-fp8/trtllm/disagg/hopper: the shell line after ${ENGINE_ARGS} expanded.
  CHECK(text::flag_value("python3 -m dynamo.trtllm --extra-engine-args \"/engine_configs/prefill.yaml\" \\ "
                         "--disaggregation-mode prefill",
                         "--extra-engine-args") == "/engine_configs/prefill.yaml");
  CHECK(text::flag_value("x --disaggregation-transfer-backend=nixl --tp 2", "--disaggregation-transfer-backend") == "nixl");
  CHECK(text::flag_value("x --extra-engine-args '/c/d.yaml'; exec y", "--extra-engine-args") == "/c/d.yaml");
  CHECK(text::flag_value("x --extra-engine-args-file a", "--extra-engine-args").empty());  // another flag
  CHECK(text::flag_value("x --extra-engine-args", "--extra-engine-args").empty());
}

TEST_CASE("replace_all: every occurrence, left to right, never the replacement again") {
  CHECK(icheck::text::replace_all("<pod> on <node>; <pod>", "<pod>", "p-0") ==
        "p-0 on <node>; p-0");
  CHECK(icheck::text::replace_all("aa", "a", "aa") == "aaaa");
  CHECK(icheck::text::replace_all("abc", "", "x") == "abc");
  CHECK(icheck::text::replace_all("", "a", "b").empty());
}
