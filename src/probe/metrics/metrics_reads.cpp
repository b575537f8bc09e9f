#include "probe/metrics/metrics_reads.hpp"

#include "probe/sections.hpp"

#include <cstdlib>

namespace icheck::probe {
namespace {

std::string_view first_line(std::string_view body) {
  while (!body.empty() && body.front() == '\n')
    body.remove_prefix(1);
  return body.substr(0, body.find('\n'));
}

MetricsRead read_of(const Section* s) {
  MetricsRead r;
  if (s == nullptr || !s->complete) {
    r.error = s == nullptr ? "not read" : "the read was cut short";
    return r;
  }
  std::string_view body = s->body;
  std::string_view rest = body;
  std::string kept;
  while (!rest.empty()) {
    const auto nl = rest.find('\n');
    const auto line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    if (line.starts_with("@t ") && !r.time) {
      const std::string t(line.substr(3));
      char* end = nullptr;
      const double v = std::strtod(t.c_str(), &end);
      if (end != t.c_str() && v > 0)
        r.time = v;
    } else if (line.starts_with("@error ") && r.error.empty()) {
      r.error = std::string(line.substr(7));
    } else if (!line.starts_with("@")) {
      kept.append(line).push_back('\n');
    }
  }
  r.ok = s->rc == 0;
  if (!r.ok && r.error.empty())
    r.error = "exit status " + (s->rc ? std::to_string(*s->rc) : std::string("unknown"));
  if (r.ok)
    r.page = parse_prometheus_text(kept);
  return r;
}

}  // namespace

MetricsReads parse_metrics_reads(std::string_view raw,
                                 const std::vector<MetricsEndpoint>& endpoints) {
  MetricsReads out;
  const auto sections = split_sections(raw);
  out.complete = sections.done;
  if (const auto* reader = sections.find("reader"); reader && !reader->absent)
    out.reader = std::string(first_line(reader->body));
  for (std::size_t i = 0; i < endpoints.size(); ++i) {
    const auto n = std::to_string(i);
    out.endpoints.push_back(
        {endpoints[i], read_of(sections.find("read1-" + n)), read_of(sections.find("read2-" + n))});
  }
  return out;
}

}  // namespace icheck::probe
