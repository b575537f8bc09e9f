#include "probe/gpudirect/kconfig_parsers.hpp"
#include "util/text.hpp"

namespace icheck::probe {

std::optional<std::string> KernelConfig::option(std::string_view name) const {
  if (!complete)
    return std::nullopt;
  auto it = options.find(std::string(name));
  return it == options.end() ? std::string("unset") : it->second;
}

KernelConfig parse_kernel_config(std::string_view out) {
  KernelConfig c;
  bool read_ok = false;
  for (auto raw : text::lines(out)) {
    auto line = text::trim(raw);
    if (line.starts_with("source ")) {
      c.source = text::trim(line.substr(7));
    } else if (line.starts_with("read ")) {
      read_ok = text::trim(line.substr(5)) == "0";
    } else if (line.starts_with("memory_peers ")) {
      auto v = text::trim(line.substr(13));
      if (v == "present" || v == "absent")
        c.memory_peers = v == "present";
    } else if (line.starts_with("# CONFIG_") && line.ends_with(" is not set")) {
      auto name = line.substr(2, line.size() - 2 - 11);
      c.options[std::string(name)] = "unset";
    } else if (line.starts_with("CONFIG_")) {
      auto eq = line.find('=');
      if (eq != std::string_view::npos)
        c.options[std::string(line.substr(0, eq))] = std::string(line.substr(eq + 1));
    }
  }
  c.complete = read_ok && !c.source.empty();
  return c;
}

void read_kernel_config(NodeFacts& f) {
  if (const Tool* t = f.tool("kernel_config"); t && !t->truncated)
    f.kernel_config = parse_kernel_config(t->output);
}

}  // namespace icheck::probe
