#include "probe/nixl/nixl_agent_facts.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <cctype>

namespace icheck::probe {
namespace {

// glog's "E0421 11:56:59.774282  709103 nixl_agent.cpp:259] message"
bool glog_error(std::string_view line) {
  return line.size() > 6 && line[0] == 'E' &&
         std::all_of(line.begin() + 1, line.begin() + 5,
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
         line[5] == ' ';
}

void read_backend(std::string_view rest, NixlAgentProbe& f) {
  const auto space = rest.find(' ');
  if (space == std::string_view::npos)
    return;
  const std::string name(rest.substr(0, space));
  const auto what = rest.substr(space + 1);
  if (what == "created")
    f.backends[name] = "";
  else if (what.starts_with("error "))
    f.backends[name] = text::trim(what.substr(6));
}

}  // namespace

bool NixlAgentProbe::lists(std::string_view plugin) const {
  return std::find(plugins.begin(), plugins.end(), plugin) != plugins.end();
}

NixlAgentProbe parse_nixl_agent(std::string_view body, bool found, int rc, bool timed_out) {
  NixlAgentProbe f;
  f.section = true;
  f.python = found;
  if (!found)
    return f;
  for (auto raw : text::lines(body)) {
    auto line = text::trim(raw);
    if (line.starts_with("plugins"))
      for (auto w : text::words(line.substr(7)))
        f.plugins.emplace_back(w);
    else if (line.starts_with("backend "))
      read_backend(line.substr(8), f);
    else if (line.starts_with("skipped: "))
      f.skipped = text::trim(line.substr(9));
    else if (line.starts_with("error: "))
      f.error = text::trim(line.substr(7));
    else if (line == "end")
      f.complete = true;
    else if (glog_error(line))
      f.log_errors.emplace_back(line);
  }
  if (!f.skipped.empty() || !f.error.empty() || f.complete)
    return f;
  f.error = timed_out
                ? "python3 asking nixl._api timed out"
                : "python3 asking nixl._api exited " + std::to_string(rc) + " before it finished";
  return f;
}

}  // namespace icheck::probe
