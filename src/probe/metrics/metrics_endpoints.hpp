#pragma once
// Where a worker serves its Prometheus metrics, from its container spec (env and command line):
// Dynamo's system server (DYN_SYSTEM_PORT, which also carries the engine's vllm:/sglang:
// families), NIXL's telemetry exporter (NIXL_TELEMETRY_ENABLE with the prometheus exporter,
// NIXL_TELEMETRY_PROMETHEUS_PORT, default 9090), and an engine's own HTTP server (`vllm serve
// --port`, default 8000; SGLang's launch_server with --enable-metrics, --port, default 30000).
// Read inside the pod from 127.0.0.1, never through a Service. Pure.

#include <map>
#include <string>
#include <vector>

namespace icheck::probe {

struct MetricsEndpoint {
  std::string source;  // dynamo | nixl-telemetry | vllm | sglang
  int port = 0;
  std::string path = "/metrics";
  std::string why;  // where the port came from: "DYN_SYSTEM_PORT=9090"
};

// Each port once (the first source that names it).
std::vector<MetricsEndpoint> metrics_endpoints(const std::map<std::string, std::string>& env,
                                               const std::vector<std::string>& command_line);

}  // namespace icheck::probe
