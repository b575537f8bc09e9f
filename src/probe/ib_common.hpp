#pragma once
// Constructors shared by the IB parsers (internal to src/probe).

#include <string>

#include "probe/facts.hpp"

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

}  // namespace icheck::probe
