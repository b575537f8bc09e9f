#include <doctest/doctest.h>

#include "kube/kubectl_stderr.hpp"

using namespace icheck::kube;
using strings = std::vector<std::string>;

namespace {
// kubectl 1.31 `get pods` against a closed port (observed on the build machine, 2026-11-30).
const char* k_refused =
    "E1130 19:01:10.339436   12950 memcache.go:265] \"Unhandled Error\" err=\"couldn't get current "
    "server API group list: Get \\\"https://127.0.0.1:1/api?timeout=32s\\\": dial tcp 127.0.0.1:1: "
    "connect: connection refused\"\n"
    "E1130 19:01:10.340872   12950 memcache.go:265] \"Unhandled Error\" err=\"couldn't get current "
    "server API group list: Get \\\"https://127.0.0.1:1/api?timeout=32s\\\": dial tcp 127.0.0.1:1: "
    "connect: connection refused\"\n"
    "The connection to the server 127.0.0.1:1 was refused - did you specify the right host or port?\n";
}  // namespace

TEST_CASE("kubectl stderr: klog retries give way to kubectl's own message") {
  CHECK(kubectl_messages(k_refused) ==
        strings{"The connection to the server 127.0.0.1:1 was refused - did you specify the right host or port?"});
}

TEST_CASE("kubectl stderr: only klog lines keep each distinct message once, header dropped") {
  const std::string two =
      "E1130 19:01:10.339436   12950 memcache.go:265] same\n"
      "E1130 19:01:10.340872   12950 memcache.go:265] same\n"
      "W1130 19:01:11.000001   12950 loader.go:222] other\n";
  CHECK(kubectl_messages(two) == strings{"same", "other"});
}

TEST_CASE("kubectl stderr: NotFound lines per named pod are all kept, blanks dropped") {
  CHECK(kubectl_messages("Error from server (NotFound): pods \"a\" not found\n\n"
                         "Error from server (NotFound): pods \"b\" not found\n") ==
        strings{"Error from server (NotFound): pods \"a\" not found",
                "Error from server (NotFound): pods \"b\" not found"});
  CHECK(kubectl_messages("").empty());
}

TEST_CASE("kubectl stderr: what only looks like klog is kept") {
  CHECK(is_klog_line("I0102 03:04:05.678901       1 round_trippers.go:553] GET https://x 200 OK"));
  CHECK_FALSE(is_klog_line("E1130 is not a date"));
  CHECK_FALSE(is_klog_line("Error from server (Forbidden): pods is forbidden"));
  CHECK_FALSE(is_klog_line("E1130 19:01:10.339436   12950 no file and line here"));
}
