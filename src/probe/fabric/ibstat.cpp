#include "probe/parsers.hpp"
#include "probe/fabric/ib_common.hpp"
#include "util/text.hpp"

namespace icheck::probe {
namespace {

// "CA 'mlx5_0'" (full run) or "CA: 'mlx5_0'" (`ibstat <ca> <port>`); node types per ibstat.c.
std::optional<std::pair<std::string, std::string>> ca_header(std::string_view line) {
  auto open = line.find('\'');
  auto close = line.rfind('\'');
  if (open == std::string_view::npos || close <= open) return std::nullopt;
  auto type = text::trim(line.substr(0, open));
  if (type.ends_with(':')) type = text::trim(type.substr(0, type.size() - 1));
  if (type != "CA" && type != "Switch" && type != "Router" && type != "iWARP RNIC" && type != "???")
    return std::nullopt;
  return std::make_pair(std::string(type), std::string(line.substr(open + 1, close - open - 1)));
}

void set_port_field(IbPort& port, std::string_view key, std::string_view value) {
  if (key == "State") {
    set_state(port, value);
  } else if (key == "Physical state") {
    set_phys_state(port, value);
  } else if (key == "Rate") {
    set_rate(port, value);
  } else if (key == "Link layer") {
    set_link_layer(port, value);
  } else if (key == "Base lid") {
    if (auto v = text::to_int(value)) port.base_lid = static_cast<int>(*v);
  } else if (key == "SM lid") {
    if (auto v = text::to_int(value)) port.sm_lid = static_cast<int>(*v);
  }
}

void set_device_field(IbDevice& dev, std::string_view key, std::string_view value) {
  if (key == "CA type") dev.ca_type = value;
  else if (key == "Firmware version") dev.fw = value;
  else if (key == "Node GUID") dev.node_guid = value;
}

}  // namespace

IbDevices parse_ibstat(std::string_view out) {
  IbDevices result;
  IbDevice* dev = nullptr;
  IbPort* port = nullptr;
  for (auto raw : text::lines(out)) {
    auto line = text::trim(raw);
    if (line.starts_with("ibpanic:") || line.starts_with("ibwarn:") || line.starts_with("ibstat:")) {
      // ibwarn lines are debug chatter; a panic or ibstat's own error ends the data.
      if (!line.starts_with("ibwarn:") && result.error.empty()) result.error = line;
      continue;
    }
    if (auto header = ca_header(line)) {
      result.devices.push_back(named_device(header->second, header->first));
      dev = &result.devices.back();
      port = nullptr;
      continue;
    }
    if (line.starts_with("Port ") && line.ends_with(':')) {
      auto n = text::to_int(line.substr(5, line.size() - 6));
      if (!n) continue;
      if (dev == nullptr) {  // a snippet that starts inside a CA block
        result.devices.push_back(named_device({}));
        dev = &result.devices.back();
      }
      dev->ports.push_back(new_port(dev->name, static_cast<int>(*n)));
      port = &dev->ports.back();
      continue;
    }
    auto kv = text::key_value(line);
    if (!kv) continue;
    if (port != nullptr) set_port_field(*port, kv->first, kv->second);
    if (dev != nullptr && port == nullptr) set_device_field(*dev, kv->first, kv->second);
  }
  return result;
}

}  // namespace icheck::probe
