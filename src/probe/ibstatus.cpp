#include "probe/parsers.hpp"
#include "probe/ib_common.hpp"
#include "probe/text.hpp"

namespace icheck::probe {
namespace {

IbPort* start_port(IbDevices& result, std::string_view line) {
  // "Infiniband device 'mlx5_0' port 1 status:"
  auto open = line.find('\'');
  auto close = line.find('\'', open + 1);
  if (open == std::string_view::npos || close == std::string_view::npos) return nullptr;
  std::string name(line.substr(open + 1, close - open - 1));
  auto rest = text::words(line.substr(close + 1));
  int number = 0;
  if (rest.size() >= 2 && rest[0] == "port")
    if (auto n = text::to_int(rest[1])) number = static_cast<int>(*n);
  if (result.devices.empty() || result.devices.back().name != name)
    result.devices.push_back(named_device(name));
  auto& dev = result.devices.back();
  dev.ports.push_back(new_port(name, number));
  return &dev.ports.back();
}

std::optional<int> lid(std::string_view value) {
  if (auto v = text::to_hex(value)) return static_cast<int>(*v);  // printed as 0x33bf
  return std::nullopt;
}

}  // namespace

IbDevices parse_ibstatus(std::string_view out) {
  IbDevices result;
  IbPort* port = nullptr;
  for (auto raw : text::lines(out)) {
    auto line = text::trim(raw);
    if (line.starts_with("Infiniband device '")) {
      port = start_port(result, line);
      continue;
    }
    if (line.empty()) {
      port = nullptr;  // the blank line ends a port block; text after it is not ibstatus
      continue;
    }
    auto kv = text::key_value(line);
    if (port == nullptr || !kv) continue;
    auto [key, value] = *kv;
    if (key == "state") {
      port->state_text = value;
      port->state = parse_port_state(value);
    } else if (key == "phys state") {
      port->phys_state_text = value;
      port->phys_state = parse_phys_state(value);
    } else if (key == "rate") {
      port->rate_text = value;
      port->rate_gbps = parse_rate_gbps(value);
    } else if (key == "link_layer") {
      port->link_layer_text = value;
      port->link_layer = parse_link_layer(value);
    } else if (key == "base lid") {
      port->base_lid = lid(value);
    } else if (key == "sm lid") {
      port->sm_lid = lid(value);
    }
  }
  return result;
}

}  // namespace icheck::probe
