#include "rules/rdma_access/mooncake.hpp"

#include "dynamo/engine_flags.hpp"
#include "dynamo/transport_vars.hpp"
#include "util/join.hpp"
#include "util/text.hpp"
#include "util/truthy.hpp"

#include <algorithm>
#include <optional>

namespace icheck::rules {
namespace {

using probe::RoceGid;
using report::Finding;
using report::Status;

// Every finding says which engine it is about: "Mooncake (KV engine, <where it was chosen>): ...".
Finding mooncake_finding(const KvBackends& b, std::string name, Status status,
                         const std::string& detail, std::string next = {}, bool required = true) {
  Finding f;
  f.name = std::move(name);
  f.layer = report::Layer::rdma_access;
  f.status = status;
  f.detail = "Mooncake (KV engine: " + b.library_source + "): " + detail;
  f.next = std::move(next);
  f.required = required;
  return f;
}

std::optional<std::string> env(const probe::NodeFacts& node, std::string_view name) {
  auto it = node.transport_env.find(std::string(name));
  if (it == node.transport_env.end())
    return std::nullopt;
  return it->second;
}

// The HCAs Mooncake is told to use: SGLang's flag, then its own whitelist.
std::vector<std::string> named_devices(const probe::NodeFacts& node, const KvBackends& b) {
  std::vector<std::string> out = b.ib_devices;
  if (auto filters = env(node, dynamo::kMooncakeDeviceFilterVar))
    for (auto name : text::split(*filters, ','))
      if (auto d = std::string(text::trim(name));
          !d.empty() && std::find(out.begin(), out.end(), d) == out.end())
        out.push_back(d);
  return out;
}

bool has_device(const std::vector<probe::IbDevice>& list, const std::string& name) {
  return std::any_of(list.begin(), list.end(),
                     [&](const probe::IbDevice& d) { return d.name == name; });
}

std::optional<Finding> devices(const probe::NodeFacts& node, const KvBackends& b) {
  const auto named = named_devices(node, b);
  if (named.empty())
    return std::nullopt;
  std::vector<std::string> unallocated, absent;
  for (const auto& d : named) {
    if (has_device(node.sysfs_devices, d))
      continue;
    (has_device(node.unallocated_devices, d) ? unallocated : absent).push_back(d);
  }
  if (unallocated.empty() && absent.empty()) {
    if (node.allocation_known)
      return std::nullopt;
    return mooncake_finding(b, "mooncake devices", Status::warn,
                            join(named) + " named, but which HCAs are the pod's is unknown",
                            "ls /dev/infiniband /sys/class/infiniband_verbs/*/ibdev");
  }
  std::string detail;
  if (!unallocated.empty())
    detail = join(unallocated) + " not allocated to the pod (in sysfs, no uverbs node)";
  if (!absent.empty())
    detail += (detail.empty() ? "" : "; ") + join(absent) + " not an RDMA device here";
  return mooncake_finding(b, "mooncake devices", Status::fail,
                          detail + ": named in " + std::string(dynamo::kSglangIbDeviceFlag) +
                              " or " + std::string(dynamo::kMooncakeDeviceFilterVar) +
                              ", Mooncake cannot open it",
                          "name only the pod's HCAs (ls /sys/class/infiniband_verbs/*/ibdev)");
}

struct RocePort {
  std::string id;  // mlx5_0:1
  std::vector<const RoceGid*> gids;
};

// The Active RoCE ports of the HCAs Mooncake would use: the named ones, else the pod's.
std::vector<RocePort> roce_ports(const probe::NodeFacts& node,
                                 const std::vector<std::string>& named) {
  std::vector<RocePort> out;
  for (const auto& d : node.sysfs_devices) {
    if (!named.empty() && std::find(named.begin(), named.end(), d.name) == named.end())
      continue;
    for (const auto& p : d.ports) {
      if (p.link_layer != probe::LinkLayer::ethernet || p.state != probe::PortState::active)
        continue;
      RocePort rp{d.name + ":" + std::to_string(p.port), {}};
      for (const auto& g : node.roce_gids)
        if (g.device == d.name && g.port == p.port)
          rp.gids.push_back(&g);
      out.push_back(std::move(rp));
    }
  }
  return out;
}

bool any(const RocePort& p, bool (*pick)(const RoceGid&)) {
  return std::any_of(p.gids.begin(), p.gids.end(), [&](const RoceGid* g) { return pick(*g); });
}

bool v2_ipv4(const RoceGid& g) {
  return g.v2() && g.ipv4();
}
bool v2_routable_ipv6(const RoceGid& g) {
  return g.v2() && !g.ipv4() && !g.link_local();
}
bool v2_any(const RoceGid& g) {
  return g.v2();
}

Finding gid_from_index(const std::vector<RocePort>& ports, const KvBackends& b,
                       const std::string& index) {
  std::vector<std::string> bad;
  for (const auto& p : ports) {
    const bool v2 = std::any_of(p.gids.begin(), p.gids.end(), [&](const RoceGid* g) {
      return g->v2() && std::to_string(g->index) == text::trim(index);
    });
    if (!v2)
      bad.push_back(p.id);
  }
  const std::string set = dynamo::setting(dynamo::kMooncakeGidIndexVar, index);
  if (bad.empty())
    return mooncake_finding(b, "mooncake gid", Status::ok, set + " is a RoCE v2 entry", {}, false);
  return mooncake_finding(
      b, "mooncake gid", Status::fail,
      set + " names no RoCE v2 GID on " + join(bad) + ": Mooncake cannot address the port",
      "show_gids (or /sys/class/infiniband/*/ports/*/gids) and set the RoCE v2 entry's index");
}

std::optional<Finding> gids(const probe::NodeFacts& node, const KvBackends& b) {
  const auto ports = roce_ports(node, named_devices(node, b));
  if (ports.empty())
    return std::nullopt;
  const auto* table = node.tool("roce_gids");
  if (table == nullptr || !table->found || table->truncated)
    return mooncake_finding(b, "mooncake gid", Status::skipped, "the RoCE GID tables were not read",
                            {}, false);
  if (auto index = env(node, dynamo::kMooncakeGidIndexVar))
    return gid_from_index(ports, b, *index);
  std::vector<std::string> none, ipv6_only, link_local_only;
  for (const auto& p : ports) {
    if (any(p, v2_ipv4))
      continue;
    if (any(p, v2_routable_ipv6))
      ipv6_only.push_back(p.id);
    else if (any(p, v2_any))
      link_local_only.push_back(p.id);
    else
      none.push_back(p.id);
  }
  const std::string fix = "give the RoCE netdev an IPv4 address (a RoCE v2 IPv4 GID), or set " +
                          std::string(dynamo::kMooncakeGidIndexVar) +
                          " to a routable RoCE v2 entry";
  if (!none.empty())
    return mooncake_finding(
        b, "mooncake gid", Status::fail,
        "no RoCE v2 GID on " + join(none) +
            ": Mooncake uses RoCE v2 GIDs only (\"No suitable GID\", kvcache-ai/Mooncake PR #113)",
        fix);
  if (!ipv6_only.empty())
    return mooncake_finding(
        b, "mooncake gid", Status::warn,
        "only IPv6 RoCE v2 GIDs on " + join(ipv6_only) +
            ": Mooncake before kvcache-ai/Mooncake #1597 accepts IPv4-mapped ones only and "
            "fails with \"No suitable GID\" (kvcache-ai/Mooncake #1593)",
        fix);
  if (!link_local_only.empty())
    return mooncake_finding(b, "mooncake gid", Status::warn,
                            "only link-local RoCE v2 GIDs on " + join(link_local_only) +
                                ": not routable across subnets (kvcache-ai/Mooncake #2747)",
                            fix);
  return mooncake_finding(b, "mooncake gid", Status::ok,
                          "a RoCE v2 IPv4 GID on " + std::to_string(ports.size()) + " RoCE port" +
                              (ports.size() == 1 ? "" : "s"),
                          {}, false);
}

}  // namespace

std::vector<Finding> judge_mooncake(const probe::NodeFacts& node, const KvBackends& b) {
  std::vector<Finding> out;
  if (auto tcp = env(node, dynamo::kMooncakeForceTcpVar); tcp && truthy(*tcp))
    out.push_back(mooncake_finding(b, "mooncake tcp", Status::fail,
                                   dynamo::setting(dynamo::kMooncakeForceTcpVar, *tcp) +
                                       ": KV goes over TCP, not RDMA (kvcache-ai/Mooncake #1811)",
                                   "remove " + std::string(dynamo::kMooncakeForceTcpVar)));
  if (auto f = devices(node, b))
    out.push_back(*f);
  if (auto f = gids(node, b))
    out.push_back(*f);
  return out;
}

}  // namespace icheck::rules
