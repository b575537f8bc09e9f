#include "probe/metrics/prometheus_text.hpp"

#include <cctype>
#include <cstdlib>
#include <limits>

namespace icheck::probe {
namespace {

bool name_char(char c, bool first) {
  const bool alpha = std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':';
  return first ? alpha : alpha || std::isdigit(static_cast<unsigned char>(c));
}

// The value as the format writes it: a Go float, or NaN, +Inf, -Inf.
std::optional<double> parse_value(std::string_view v) {
  if (v == "NaN")
    return std::numeric_limits<double>::quiet_NaN();
  if (v == "+Inf" || v == "Inf")
    return std::numeric_limits<double>::infinity();
  if (v == "-Inf")
    return -std::numeric_limits<double>::infinity();
  if (v.empty() || v.size() > 64)
    return std::nullopt;
  const std::string copy(v);  // strtod: exponents and hex as Go prints them
  char* end = nullptr;
  const double d = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size())
    return std::nullopt;
  return d;
}

// `{a="x",b="y"}` from `at` (just past '{'); the position past '}' or npos when malformed.
std::size_t parse_labels(std::string_view line, std::size_t at,
                         std::map<std::string, std::string>& labels) {
  while (at < line.size()) {
    while (at < line.size() && (line[at] == ' ' || line[at] == ','))
      ++at;
    if (at < line.size() && line[at] == '}')
      return at + 1;
    const auto eq = line.find('=', at);
    if (eq == std::string_view::npos || eq + 1 >= line.size() || line[eq + 1] != '"')
      return std::string_view::npos;
    std::string key(line.substr(at, eq - at));
    while (!key.empty() && key.back() == ' ')
      key.pop_back();
    std::string value;
    std::size_t i = eq + 2;
    for (; i < line.size() && line[i] != '"'; ++i) {
      if (line[i] == '\\' && i + 1 < line.size()) {
        ++i;
        value += line[i] == 'n' ? '\n' : line[i];
      } else {
        value += line[i];
      }
    }
    if (i >= line.size() || key.empty())
      return std::string_view::npos;
    labels[key] = std::move(value);
    at = i + 1;
  }
  return std::string_view::npos;
}

std::optional<MetricSample> parse_sample(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && name_char(line[i], i == 0))
    ++i;
  if (i == 0)
    return std::nullopt;
  MetricSample s;
  s.name = std::string(line.substr(0, i));
  if (i < line.size() && line[i] == '{') {
    i = parse_labels(line, i + 1, s.labels);
    if (i == std::string_view::npos)
      return std::nullopt;
  }
  while (i < line.size() && line[i] == ' ')
    ++i;
  auto rest = line.substr(i);
  const auto blank = rest.find(' ');  // a timestamp may follow
  auto value = parse_value(rest.substr(0, blank));
  if (!value)
    return std::nullopt;
  s.value = *value;
  return s;
}

}  // namespace

Exposition parse_prometheus_text(std::string_view text) {
  Exposition out;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    auto line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.remove_suffix(1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
      line.remove_prefix(1);
    if (line.empty() || line.front() == '#')
      continue;
    if (auto s = parse_sample(line))
      out.samples.push_back(std::move(*s));
    else
      ++out.malformed;
  }
  return out;
}

std::optional<double> metric_sum(const Exposition& e, std::string_view name,
                                 const std::map<std::string, std::string>& match) {
  std::optional<double> sum;
  for (const auto& s : e.samples) {
    if (s.name != name)
      continue;
    bool holds = true;
    for (const auto& [k, v] : match) {
      const auto it = s.labels.find(k);
      holds = holds && it != s.labels.end() && it->second == v;
    }
    if (!sum)
      sum = 0.0;  // the family is exposed, even where no label set matches
    if (holds)
      *sum += s.value;
  }
  return sum;
}

}  // namespace icheck::probe
