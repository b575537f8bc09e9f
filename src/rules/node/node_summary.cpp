// The one line under a node target's heading: what GPUs and RDMA NICs the pod sees.
#include <algorithm>
#include <map>

#include "rules/node/node.hpp"
#include "rules/node/node_view.hpp"

namespace icheck::rules {
namespace {

// Groups keep first-seen order so the line reads like the hardware list.
struct Counted {
  std::vector<std::pair<std::string, int>> items;
  void add(const std::string& key) {
    for (auto& [k, n] : items)
      if (k == key) return void(++n);
    items.emplace_back(key, 1);
  }
  std::string text() const {
    std::vector<std::string> parts;
    for (const auto& [k, n] : items) parts.push_back(std::to_string(n) + "× " + k);
    return node::join(parts, " + ");
  }
};

std::string gpu_part(const probe::NodeFacts& f) {
  Counted c;
  for (const auto& g : f.gpus) c.add(g.name.empty() ? "GPU" : g.name);
  if (c.items.empty() && f.topo)
    for (std::size_t i = 0; i < f.topo->gpu_rows().size(); ++i) c.add("GPU");
  return c.items.empty() ? "no GPU visible" : c.text();
}

// mlx5_0 -> mlx5, mlx5_bond_0 -> mlx5_bond.
std::string family(const std::string& name) {
  auto u = name.find_last_of('_');
  if (u == std::string::npos || u + 1 == name.size()) return name;
  bool digits = std::all_of(name.begin() + static_cast<long>(u) + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
  return digits ? name.substr(0, u) : name;
}

std::string nic_key(const probe::IbDevice& d) {
  for (const auto& p : d.ports) {
    if (!node::is_active(p)) continue;
    std::string rate = p.rate_gbps ? node::format_rate(*p.rate_gbps) + " Gb/s " : "";
    std::string layer = p.link_layer == probe::LinkLayer::ethernet ? "RoCE" : "InfiniBand";
    return family(d.name) + " " + rate + layer;
  }
  return family(d.name) + " (no Active port)";
}

const std::vector<probe::IbDevice>& devices(const probe::NodeFacts& f) { return *node::rdma_devices(f).list; }

std::string nic_part(const probe::NodeFacts& f) {
  Counted c;
  for (const auto& d : devices(f)) c.add(nic_key(d));
  if (c.items.empty() && node::cut_before(f, "sysfs_ib")) return "RDMA devices unknown (probe output cut)";
  return c.items.empty() ? "no RDMA device" : c.text();
}

}  // namespace

std::string node_summary(const probe::NodeFacts& facts) { return gpu_part(facts) + " · " + nic_part(facts); }

}  // namespace icheck::rules
