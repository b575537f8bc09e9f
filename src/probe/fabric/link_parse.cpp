#include "probe/fabric/link_parsers.hpp"
#include "util/text.hpp"

#include <charconv>
#include <vector>

namespace icheck::probe {
namespace {

std::string port_key(std::string_view device, std::string_view port) {
  return std::string(device) + ":" + std::string(port);
}

std::string first_line(std::string_view content) {
  for (auto l : text::lines(content))
    if (auto t = text::trim(l); !t.empty())
      return std::string(t);
  return {};
}

std::optional<std::uint64_t> to_u64(std::string_view s) {
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size())
    return std::nullopt;
  return v;
}

// "mlx5_0/ports/1/counters/symbol_error": counters/ wins over hw_counters/ for one name.
void apply(std::map<std::string, PortLink>& out, std::string_view path, std::string_view content) {
  auto parts = text::split(path, '/');
  if (parts.size() < 4 || parts[1] != "ports" || !text::to_int(parts[2]))
    return;
  auto& port = out[port_key(parts[0], parts[2])];
  auto value = first_line(content);
  if (parts.size() == 5 && parts[3] == "gids" && parts[4] == "0") {
    port.gid0 = value;
    return;
  }
  if (parts.size() != 5 || (parts[3] != "counters" && parts[3] != "hw_counters"))
    return;
  std::string name(parts[4]);
  if (parts[3] == "hw_counters" && (port.counters.count(name) || port.unreadable.count(name)))
    return;
  if (auto n = to_u64(value)) {
    port.counters[name] = *n;
    port.unreadable.erase(name);
  } else {
    port.unreadable[name] = value;
  }
}

// "4096 (5)" -> 4096
std::optional<int> mtu_bytes(std::string_view value) {
  auto w = text::words(value);
  if (w.empty())
    return std::nullopt;
  auto n = text::to_int(w.front());
  if (!n || *n < 256 || *n > 65536)
    return std::nullopt;
  return static_cast<int>(*n);
}

}  // namespace

std::string PortLink::subnet_prefix() const {
  auto groups = text::split(gid0, ':');
  if (groups.size() != 8)
    return {};
  std::string out;
  for (std::size_t i = 0; i < 4; ++i)
    out += (i ? ":" : "") + std::string(groups[i]);
  return out;
}

std::map<std::string, PortLink> parse_ib_links(std::string_view out) {
  std::map<std::string, PortLink> ports;
  std::string_view path;
  std::string content;
  auto flush = [&] {
    if (!path.empty())
      apply(ports, path, content);
  };
  for (auto line : text::lines(out)) {
    if (line.starts_with("==> ") && line.ends_with(" <==")) {
      flush();
      path = text::trim(line.substr(4, line.size() - 8));
      content.clear();
      continue;
    }
    content.append(line).push_back('\n');
  }
  flush();
  return ports;
}

std::map<std::string, PortLink> parse_verbs_mtu(std::string_view out) {
  std::map<std::string, PortLink> ports;
  std::string device;
  PortLink* port = nullptr;
  for (auto raw : text::lines(out)) {
    auto kv = text::key_value(text::trim(raw));
    if (!kv)
      continue;
    auto [key, value] = *kv;
    if (key == "hca_id") {
      device = value;
      port = nullptr;
    } else if (key == "port" && !device.empty() && text::to_int(value)) {
      port = &ports[port_key(device, value)];
    } else if (port != nullptr && key == "active_mtu") {
      port->active_mtu = mtu_bytes(value);
    } else if (port != nullptr && key == "max_mtu") {
      port->max_mtu = mtu_bytes(value);
    }
  }
  return ports;
}

std::map<std::string, int> parse_net_mtu(std::string_view out) {
  std::map<std::string, int> mtus;
  for (auto line : text::lines(out)) {
    auto w = text::words(line);
    if (w.size() != 2)
      continue;
    if (auto n = text::to_int(w[1]); n && *n > 0 && *n <= 65536)
      mtus[std::string(w[0])] = static_cast<int>(*n);
  }
  return mtus;
}

void read_link(NodeFacts& f) {
  if (const Tool* t = f.tool("ib_links"); t && t->found) {
    f.link.ports = parse_ib_links(t->output);
    f.link.counters_read = !t->truncated;
  }
  if (const Tool* t = f.tool("net_mtu"); t && t->found) {
    f.link.netdev_mtu = parse_net_mtu(t->output);
    f.link.netdev_mtu_read = !t->truncated;
  }
  if (const Tool* t = f.tool("ibv_devinfo"); t && t->found) {
    for (const auto& [key, mtu] : parse_verbs_mtu(t->output)) {
      auto& port = f.link.ports[key];
      port.active_mtu = mtu.active_mtu;
      port.max_mtu = mtu.max_mtu;
    }
  }
}

}  // namespace icheck::probe
