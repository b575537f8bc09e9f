// Where a worker serves its metrics, from its container spec (probe/metrics/metrics_endpoints.hpp).
#include "probe/metrics/metrics_endpoints.hpp"

#include <doctest/doctest.h>

using namespace icheck::probe;

TEST_CASE("metrics endpoints: the operator's DYN_SYSTEM_PORT, NIXL telemetry when on") {
  const std::map<std::string, std::string> env{{"DYN_SYSTEM_ENABLED", "true"},
                                               {"DYN_SYSTEM_PORT", "9090"},
                                               {"NIXL_TELEMETRY_ENABLE", "n"},
                                               {"NIXL_TELEMETRY_EXPORTER", "prometheus"},
                                               {"NIXL_TELEMETRY_PROMETHEUS_PORT", "19090"}};
  auto eps = metrics_endpoints(env, {"python3", "-m", "dynamo.vllm", "--model", "m"});
  REQUIRE(eps.size() == 1);
  CHECK(eps[0].source == "dynamo");
  CHECK(eps[0].port == 9090);
  CHECK(eps[0].path == "/metrics");
  CHECK(eps[0].why == "DYN_SYSTEM_PORT=9090");
  auto on = env;
  on["NIXL_TELEMETRY_ENABLE"] = "y";
  eps = metrics_endpoints(on, {"python3", "-m", "dynamo.vllm"});
  REQUIRE(eps.size() == 2);
  CHECK(eps[1].source == "nixl-telemetry");
  CHECK(eps[1].port == 19090);
}

TEST_CASE("metrics endpoints: an engine's own server, its --port or its default") {
  auto eps = metrics_endpoints({}, {"vllm", "serve", "m", "--port=8123"});
  REQUIRE(eps.size() == 1);
  CHECK(eps[0].source == "vllm");
  CHECK(eps[0].port == 8123);
  eps = metrics_endpoints({}, {"sh", "-c", "exec vllm serve m --kv-transfer-config '{}'"});
  REQUIRE(eps.size() == 1);
  CHECK(eps[0].port == 8000);
  eps = metrics_endpoints({}, {"python3", "-m", "sglang.launch_server", "--enable-metrics"});
  REQUIRE(eps.size() == 1);
  CHECK(eps[0].port == 30000);
  // Without --enable-metrics SGLang serves no metrics.
  CHECK(metrics_endpoints({}, {"python3", "-m", "sglang.launch_server", "--port", "3"}).empty());
}

TEST_CASE("metrics endpoints: none, or a port that is not one, and each port once") {
  CHECK(metrics_endpoints({}, {"python3", "-m", "dynamo.sglang"}).empty());
  CHECK(metrics_endpoints({{"DYN_SYSTEM_PORT", "-1"}}, {}).empty());
  CHECK(metrics_endpoints({{"DYN_SYSTEM_PORT", "9090x"}}, {}).empty());
  CHECK(metrics_endpoints({{"DYN_SYSTEM_PORT", "70000"}}, {}).empty());
  const auto eps = metrics_endpoints({{"DYN_SYSTEM_PORT", "9090"},
                                      {"NIXL_TELEMETRY_ENABLE", "yes"},
                                      {"NIXL_TELEMETRY_EXPORTER", "prometheus"}},
                                     {});
  REQUIRE(eps.size() == 1);  // NIXL's default 9090 is the same port
  CHECK(eps[0].source == "dynamo");
}
