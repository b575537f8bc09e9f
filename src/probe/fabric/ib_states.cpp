#include "probe/parsers.hpp"
#include "util/text.hpp"

namespace icheck::probe {
namespace {

// One spelling for every source: drop "N: " (sysfs), "PORT_" and " (N)" (ibv_devinfo),
// case, blanks and underscores. "4: ACTIVE", "Active", "PORT_ACTIVE (4)" -> "active".
std::string normalized(std::string_view text) {
  text = text::trim(text);
  if (auto colon = text.find(':'); colon != std::string_view::npos && colon < 4)
    text = text::trim(text.substr(colon + 1));
  if (auto paren = text.find(" ("); paren != std::string_view::npos) text = text.substr(0, paren);
  std::string out;
  for (char c : text::lower(text))
    if (c != ' ' && c != '_' && c != '\t') out += c;
  return out;
}

}  // namespace

PortState parse_port_state(std::string_view text) {
  auto s = normalized(text);
  if (s.starts_with("port")) s.erase(0, 4);  // ibv_devinfo: PORT_ACTIVE
  if (s == "down") return PortState::down;
  if (s == "init" || s == "initializing") return PortState::init;
  if (s == "armed") return PortState::armed;
  if (s == "active") return PortState::active;
  if (s == "activedefer") return PortState::active_defer;
  if (s == "nop") return PortState::nop;
  return PortState::unknown;
}

PhysState parse_phys_state(std::string_view text) {
  auto s = normalized(text);
  if (s == "nostatechange") return PhysState::no_state_change;
  if (s == "sleep") return PhysState::sleep;
  if (s == "polling") return PhysState::polling;
  if (s == "disabled") return PhysState::disabled;
  if (s == "portconfigurationtraining") return PhysState::port_config_training;
  if (s == "linkup") return PhysState::linkup;
  if (s == "linkerrorrecovery") return PhysState::link_error_recovery;
  if (s == "phytest") return PhysState::phy_test;
  return PhysState::unknown;
}

LinkLayer parse_link_layer(std::string_view text) {
  auto s = text::lower(text::trim(text));
  if (s == "infiniband") return LinkLayer::infiniband;
  if (s == "ethernet") return LinkLayer::ethernet;
  return LinkLayer::unknown;
}

std::optional<double> parse_rate_gbps(std::string_view text) {
  return text::leading_rate(text);
}

std::string_view to_string(PortState state) {
  switch (state) {
    case PortState::down: return "down";
    case PortState::init: return "init";
    case PortState::armed: return "armed";
    case PortState::active: return "active";
    case PortState::active_defer: return "active_defer";
    case PortState::nop: return "nop";
    case PortState::unknown: break;
  }
  return "unknown";
}

std::string_view to_string(PhysState state) {
  switch (state) {
    case PhysState::no_state_change: return "no_state_change";
    case PhysState::sleep: return "sleep";
    case PhysState::polling: return "polling";
    case PhysState::disabled: return "disabled";
    case PhysState::port_config_training: return "port_config_training";
    case PhysState::linkup: return "linkup";
    case PhysState::link_error_recovery: return "link_error_recovery";
    case PhysState::phy_test: return "phy_test";
    case PhysState::unknown: break;
  }
  return "unknown";
}

std::string_view to_string(LinkLayer layer) {
  switch (layer) {
    case LinkLayer::infiniband: return "infiniband";
    case LinkLayer::ethernet: return "ethernet";
    case LinkLayer::efa:
      return "efa";
    case LinkLayer::unknown: break;
  }
  return "unknown";
}

}  // namespace icheck::probe
