#pragma once
// The Prometheus text exposition format (version 0.0.4), as the engines' /metrics pages print
// it: `name{label="value",...} value [timestamp]` per sample, `#` lines for HELP and TYPE. Only
// the samples are kept; a line that does not parse is skipped and counted. Pure.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::probe {

struct MetricSample {
  std::string name;                           // e.g. vllm:nixl_bytes_transferred_sum
  std::map<std::string, std::string> labels;  // values unescaped (\\, \", \n)
  double value = 0;                           // NaN, +Inf and -Inf as the format spells them
};

struct Exposition {
  std::vector<MetricSample> samples;
  std::size_t malformed = 0;  // sample lines that did not parse
};

Exposition parse_prometheus_text(std::string_view text);

// The sum of every sample named `name` whose labels hold each of `match`; nullopt when no
// sample has that name (a family that is not exposed is unknown, never zero).
std::optional<double> metric_sum(const Exposition& e, std::string_view name,
                                 const std::map<std::string, std::string>& match = {});

}  // namespace icheck::probe
