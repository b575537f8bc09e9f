#include "probe/metrics/metrics_endpoints.hpp"

#include "dynamo/command_words.hpp"
#include "util/truthy.hpp"

#include <algorithm>
#include <charconv>

namespace icheck::probe {
namespace {

int port_of(const std::string& text) {
  int port = 0;
  const auto* end = text.data() + text.size();
  const auto [at, ec] = std::from_chars(text.data(), end, port);
  return ec == std::errc{} && at == end && port > 0 && port < 65536 ? port : 0;
}

const std::string* env_value(const std::map<std::string, std::string>& env, const char* name) {
  const auto it = env.find(name);
  return it == env.end() ? nullptr : &it->second;
}

// `--port N` or `--port=N` in words; "" when absent.
std::string flag_value(const std::vector<std::string>& words, const std::string& flag) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == flag && i + 1 < words.size())
      return words[i + 1];
    if (words[i].starts_with(flag + "="))
      return words[i].substr(flag.size() + 1);
  }
  return "";
}

bool has_word(const std::vector<std::string>& words, const std::string& word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

// The engine's own API server, when the container runs one (not under dynamo.vllm/sglang,
// whose engines serve no HTTP of their own: their metrics go through DYN_SYSTEM_PORT).
void engine_endpoint(const std::vector<std::string>& words, std::vector<MetricsEndpoint>& out) {
  const bool vllm_serve = [&] {
    for (std::size_t i = 0; i + 1 < words.size(); ++i)
      if (words[i].ends_with("vllm") && words[i + 1] == "serve")
        return true;
    return false;
  }();
  const bool sglang =
      has_word(words, "sglang.launch_server") && has_word(words, "--enable-metrics");
  if (!vllm_serve && !sglang)
    return;
  const auto given = flag_value(words, "--port");
  const int port = given.empty() ? (vllm_serve ? 8000 : 30000) : port_of(given);
  if (port == 0)
    return;
  const std::string source = vllm_serve ? "vllm" : "sglang";
  out.push_back(
      {source, port, "/metrics", given.empty() ? source + " default port" : "--port " + given});
}

}  // namespace

std::vector<MetricsEndpoint> metrics_endpoints(const std::map<std::string, std::string>& env,
                                               const std::vector<std::string>& command_line) {
  std::vector<MetricsEndpoint> out;
  if (const auto* v = env_value(env, "DYN_SYSTEM_PORT"); v && port_of(*v) != 0)
    out.push_back({"dynamo", port_of(*v), "/metrics", "DYN_SYSTEM_PORT=" + *v});
  const auto* on = env_value(env, "NIXL_TELEMETRY_ENABLE");
  const auto* exporter = env_value(env, "NIXL_TELEMETRY_EXPORTER");
  if (on && truthy(*on) && exporter && *exporter == "prometheus") {
    const auto* v = env_value(env, "NIXL_TELEMETRY_PROMETHEUS_PORT");
    const int port = v ? port_of(*v) : 9090;
    if (port != 0)
      out.push_back({"nixl-telemetry", port, "/metrics",
                     v ? "NIXL_TELEMETRY_PROMETHEUS_PORT=" + *v : "NIXL telemetry default port"});
  }
  engine_endpoint(dynamo::command_words(command_line, env), out);
  std::vector<MetricsEndpoint> unique;
  for (auto& e : out)
    if (std::none_of(unique.begin(), unique.end(), [&](const auto& u) { return u.port == e.port; }))
      unique.push_back(std::move(e));
  return unique;
}

}  // namespace icheck::probe
