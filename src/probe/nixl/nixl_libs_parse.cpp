#include "probe/nixl/nixl_facts.hpp"
#include "util/text.hpp"

namespace icheck::probe {
namespace {

constexpr std::string_view kLoadError = "error while loading shared libraries: ";

// ldd: "libucp.so.0 => not found" / "libucp.so.0 => /opt/x/libucp.so.0 (0x...)"; the loader alone:
// "FILE: error while loading shared libraries: libucp.so.0: cannot open shared object file: ...".
void read_listing_line(std::string_view line, PluginLoad& load) {
  if (auto at = line.find(kLoadError); at != std::string_view::npos) {
    auto rest = line.substr(at + kLoadError.size());
    load.missing.emplace_back(text::trim(rest.substr(0, rest.find(':'))));
    return;
  }
  auto arrow = line.find(" => ");
  if (arrow == std::string_view::npos)
    return;
  if (text::contains(line.substr(arrow), "not found")) {
    load.missing.emplace_back(text::trim(line.substr(0, arrow)));
  } else if (text::contains(line, "libucp") || text::contains(line, "libucs") ||
             text::contains(line, "libfabric")) {
    load.uses.emplace_back(line.substr(0, line.find(" (")));
  }
}

}  // namespace

// "tool ldd", "dir PATH", then "@ FILE" per plugin followed by the loader's kept lines.
PluginLibs parse_nixl_libs(std::string_view body, bool present) {
  PluginLibs out;
  out.section = true;
  PluginLoad* current = nullptr;
  std::string backend;
  for (auto raw : text::lines(body)) {
    auto line = text::trim(raw);
    if (line.starts_with("tool "))
      out.tool = text::trim(line.substr(5));
    else if (line.starts_with("dir "))
      out.dir = text::trim(line.substr(4));
    else if (line == "odd-name")
      ++out.odd_names;
    else if (line == "odd-dir")
      out.odd_dir = true;
    else if (line.starts_with("budget "))
      out.budget_spent = true;
    else if (line.starts_with("@ ")) {
      auto file = line.substr(2);
      backend = plugin_backend(file.substr(file.rfind('/') + 1));
      current = &out.plugins[backend];
    } else if (line.starts_with("rc ") && current != nullptr) {
      const auto rc = text::to_int(text::trim(line.substr(3)));
      if (rc && (*rc == 124 || *rc == 128 + 9 || *rc == 128 + 15))  // stopped by its bound
        out.plugins.erase(backend);
      current = nullptr;
    } else if (current != nullptr) {
      read_listing_line(line, *current);
    }
  }
  if (!present)
    out.tool.clear();
  return out;
}

}  // namespace icheck::probe
