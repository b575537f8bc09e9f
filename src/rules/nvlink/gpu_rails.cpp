#include "rules/nvlink/gpu_rails.hpp"

#include "dynamo/transport_vars.hpp"

#include <algorithm>
#include <boost/json.hpp>

namespace icheck::rules::node {
namespace {

// The pod's HCAs with an Active port: what a GPU's KV can leave by.
std::set<std::string> active_nics(const std::vector<probe::IbDevice>& devices) {
  std::set<std::string> out;
  for (const auto& d : devices)
    for (const auto& p : d.ports)
      if (is_active(p))
        out.insert(d.name);
  return out;
}

// The HCAs of the ports UCX_NET_DEVICES names ("mlx5_0:1"); every Active one when it is unset.
std::set<std::string> ucx_nics(const NodeView& v, const std::set<std::string>& active) {
  auto entries = net_device_entries(v);
  if (entries.empty())
    return active;
  std::set<std::string> out;
  for (const auto& e : entries)
    if (auto colon = e.find(':'); colon != std::string::npos && active.count(e.substr(0, colon)))
      out.insert(e.substr(0, colon));
  return out;
}

std::string cell_text(const probe::Topology& t, const std::string& gpu, const std::string& nic) {
  for (const auto& c : gpu_nic_cells(t))
    if (c.gpu == gpu && c.nic == nic)
      return c.link.text;
  return "?";
}

// UCX_NET_DEVICES as it should read: the ports it names plus each missed GPU's nearest NIC's.
std::string better_setting(const NodeView& v, std::set<std::string> nics) {
  std::vector<std::string> ports;
  for (const auto& d : *v.devices)
    if (nics.count(d.name))
      for (const auto& p : d.ports)
        if (is_active(p))
          ports.push_back(port_id(p));
  return dynamo::setting(dynamo::kUcxNetDevicesVar, join(ports, ","));
}

}  // namespace

std::map<std::string, std::vector<std::string>> nearest_nics(const probe::Topology& t,
                                                             const std::set<std::string>& nics) {
  std::map<std::string, std::vector<std::string>> out;
  std::map<std::string, int> best;
  for (const auto& c : gpu_nic_cells(t)) {
    if (!nics.count(c.nic))
      continue;
    int d = topo_distance(c.link.kind);
    auto it = best.find(c.gpu);
    if (it == best.end() || d < it->second) {
      best[c.gpu] = d;
      out[c.gpu] = {c.nic};
    } else if (d == it->second) {
      out[c.gpu].push_back(c.nic);
    }
  }
  return out;
}

std::optional<report::Finding> gpu_rails(const NodeView& v) {
  if (!v.facts.topo || !v.affinity_known)
    return std::nullopt;
  auto active = active_nics(*v.devices);
  auto used = ucx_nics(v, active);
  if (used.empty())
    return std::nullopt;  // UCX_NET_DEVICES names no port here: its own finding fails
  auto nearest = nearest_nics(*v.facts.topo, active);
  std::vector<std::string> missed;
  std::set<std::string> wanted = used, idle;  // used and every GPU's nearest; nearest not used
  for (const auto& [gpu, nics] : nearest)
    for (const auto& n : nics) {
      wanted.insert(n);
      if (!used.count(n))
        idle.insert(n);
    }
  for (const auto& [gpu, nics] : nearest) {
    if (std::any_of(nics.begin(), nics.end(),
                    [&](const std::string& n) { return used.count(n) > 0; }))
      continue;
    missed.push_back(gpu + "→" + join(nics, "/") + " (" +
                     cell_text(*v.facts.topo, gpu, nics.front()) + ")");
  }
  if (missed.empty())
    return std::nullopt;
  std::string detail = dynamo::setting(dynamo::kUcxNetDevicesVar, v.net_devices.value_or("")) +
                       ": " + std::to_string(missed.size()) + " of " +
                       std::to_string(nearest.size()) + " GPUs' nearest NIC is not one UCX uses, " +
                       "so their KV crosses the CPU to " +
                       join(std::vector<std::string>(used.begin(), used.end())) +
                       "; each should use its own: " + join(missed);
  if (used.size() == 1)
    detail += " (every GPU's traffic through " + *used.begin() + " while " +
              join(std::vector<std::string>(idle.begin(), idle.end())) +
              " idle: half the bandwidth or less, openucx/ucx #11259)";
  return finding(report::Layer::nvlink, "gpu rails", report::Status::warn, detail,
                 better_setting(v, wanted));
}

boost::json::object nearest_nics_json(const probe::NodeFacts& f) {
  boost::json::object out;
  if (!f.topo)
    return out;
  for (const auto& [gpu, nics] : nearest_nics(*f.topo, active_nics(*rdma_devices(f).list))) {
    boost::json::array list;
    for (const auto& n : nics)
      list.push_back(boost::json::string(n));
    out[gpu] = std::move(list);
  }
  return out;
}

}  // namespace icheck::rules::node
