#pragma once
// Constructors and port-field setters shared by the IB parsers (internal to src/probe): each
// parser maps its own key spelling (ibstat "State", ibv_devinfo "state", sysfs file "state")
// to one setter, which keeps the text as printed and its parsed value together.

#include <string>
#include <string_view>

#include "probe/facts.hpp"
#include "probe/parsers.hpp"

namespace icheck::probe {

inline IbDevice named_device(std::string name, std::string node_type = {}) {
  IbDevice dev;
  dev.name = std::move(name);
  dev.node_type = std::move(node_type);
  return dev;
}

inline IbPort new_port(std::string device, int number) {
  IbPort port;
  port.device = std::move(device);
  port.port = number;
  return port;
}

inline void set_state(IbPort& port, std::string_view value) {
  port.state_text = value;
  port.state = parse_port_state(value);
}

inline void set_phys_state(IbPort& port, std::string_view value) {
  port.phys_state_text = value;
  port.phys_state = parse_phys_state(value);
}

inline void set_rate(IbPort& port, std::string_view value) {
  port.rate_text = value;
  port.rate_gbps = parse_rate_gbps(value);
  port.rate_unreadable = !port.rate_gbps && !value.empty();
}

inline void set_link_layer(IbPort& port, std::string_view value) {
  port.link_layer_text = value;
  port.link_layer = parse_link_layer(value);
}

}  // namespace icheck::probe
