#include "rules/fabric/link_json.hpp"

#include "probe/parsers.hpp"
#include "rules/fabric/link_rules.hpp"
#include "rules/node/node_view.hpp"

#include <boost/json.hpp>

namespace icheck::rules {
namespace {

namespace json = boost::json;

json::value optional_int(const std::optional<int>& v) {
  return v ? json::value(*v) : json::value(nullptr);
}

json::object port_json(const probe::NodeFacts& f, const probe::IbPort& p) {
  auto id = node::port_id(p);
  auto m = node::port_mtu(f, p);
  json::object counters, unreadable;
  std::string prefix;
  if (auto it = f.link.ports.find(id); it != f.link.ports.end()) {
    for (const auto& [name, value] : it->second.counters)
      counters[name] = value;
    for (const auto& [name, text] : it->second.unreadable)
      unreadable[name] = text;
    prefix = it->second.subnet_prefix();
  }
  return {{"port", id},
          {"linkLayer", std::string(probe::to_string(p.link_layer))},
          {"rdmaMtu", optional_int(m.rdma)},
          {"maxMtu", optional_int(m.max)},
          {"netdev", m.netdev_name.empty() ? json::value(nullptr) : json::value(m.netdev_name)},
          {"netdevMtu", optional_int(m.netdev)},
          {"subnetPrefix", prefix.empty() ? json::value(nullptr) : json::value(prefix)},
          {"counters", std::move(counters)},
          {"unreadableCounters", std::move(unreadable)}};
}

}  // namespace

boost::json::object link_facts_json(const probe::NodeFacts& f) {
  json::array ports;
  for (const auto& d : *node::rdma_devices(f).list)
    for (const auto& p : d.ports)
      ports.push_back(port_json(f, p));
  json::object mtus;
  for (const auto& [name, mtu] : f.link.netdev_mtu)
    mtus[name] = mtu;
  return {{"ports", std::move(ports)}, {"netdevMtu", std::move(mtus)}};
}

}  // namespace icheck::rules
