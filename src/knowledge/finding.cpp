#include "knowledge/finding.hpp"

namespace icheck::knowledge {

std::string short_source(std::string_view url) {
  constexpr std::string_view github = "https://github.com/";
  if (!url.starts_with(github))
    return std::string(url);
  auto rest = url.substr(github.size());
  for (std::string_view kind : {"/issues/", "/pull/", "/discussions/"}) {
    auto at = rest.find(kind);
    if (at == std::string_view::npos)
      continue;
    auto number = rest.substr(at + kind.size());
    number = number.substr(0, number.find_first_of("#?/"));
    return std::string(rest.substr(0, at)) + " #" + std::string(number);
  }
  return std::string(url);
}

report::Finding to_finding(const Hit& hit) {
  report::Finding f;
  f.name = hit.row->check;
  f.layer = hit.row->layer;
  f.status = hit.row->status;
  f.detail = hit.detail;
  if (!hit.row->sources.empty())
    f.detail += " (" + short_source(hit.row->sources.front()) + ")";
  f.next = hit.next;
  f.row = hit.row->id;
  return f;
}

std::vector<report::Finding> to_findings(const std::vector<Hit>& hits) {
  std::vector<report::Finding> out;
  for (const auto& h : hits)
    out.push_back(to_finding(h));
  return out;
}

}  // namespace icheck::knowledge
