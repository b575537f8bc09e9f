// RoCE addressing from the GID tables: a RoCE port is usable from the pod only through a GID
// whose netdev is in the pod's network namespace (else ibv_create_ah fails: "No such device"),
// and UCX_IB_GID_INDEX / NCCL_IB_GID_INDEX must name a RoCE v2 IPv4 entry when one exists.
#include "dynamo/transport_vars.hpp"
#include "rules/fabric/fabric_pod.hpp"
#include "rules/fabric/gid_home.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace icheck::rules::node {
namespace {

using probe::RoceGid;
using report::Layer;
using report::Status;

struct RocePort {
  const probe::IbDevice* dev;
  const probe::IbPort* port;
  std::vector<const RoceGid*> gids;
};

// The pod's RoCE ports that carry KV (a BlueField or management port is not addressed by UCX)
// and whose GID table the probe printed.
std::vector<RocePort> roce_ports(const NodeView& v) {
  std::vector<RocePort> out;
  for (const auto& d : *v.devices)
    for (const auto& p : d.ports) {
      if (p.link_layer != probe::LinkLayer::ethernet || !nic_role(v, d).traffic)
        continue;
      RocePort rp{&d, &p, {}};
      for (const auto& g : v.facts.roce_gids)
        if (g.device == d.name && g.port == p.port)
          rp.gids.push_back(&g);
      if (!rp.gids.empty())
        out.push_back(std::move(rp));
    }
  return out;
}

GidHome home(const NodeView& v, const RoceGid& g) {
  return gid_home(*v.facts.pod_netdevs, v.facts.pod_addrs, g);
}

bool in_pod(const NodeView& v, const RoceGid& g) {
  return home(v, g) == GidHome::pod;
}

bool addressable(const NodeView& v, const RocePort& rp) {
  return std::any_of(rp.gids.begin(), rp.gids.end(),
                     [&](const RoceGid* g) { return in_pod(v, *g); });
}

// The entry to use: the lowest RoCE v2 IPv4 GID on a netdev the pod has.
const RoceGid* best_gid(const NodeView& v, const RocePort& rp) {
  for (const auto* g : rp.gids)
    if (g->v2() && g->ipv4() && in_pod(v, *g))
      return g;
  return nullptr;
}

// A netdev of the port's GIDs that the pod has (else the first one named).
std::string pod_netdev_of(const NodeView& v, const RocePort& rp) {
  for (const auto* g : rp.gids)
    if (in_pod(v, *g))
      return g->netdev;
  return rp.gids.front()->netdev.empty() ? "<netdev>" : rp.gids.front()->netdev;
}

const RoceGid* gid_at(const RocePort& rp, int index) {
  for (const auto* g : rp.gids)
    if (g->index == index)
      return g;
  return nullptr;
}

std::string ports_text(const std::vector<RocePort>& ports) {
  std::vector<std::string> ids;
  for (const auto& rp : ports)
    ids.push_back(port_id(*rp.port));
  return port_range(ids);
}

const char* netns_next =
    "run the worker with hostNetwork: true, or attach the SR-IOV / macvlan network the RDMA device "
    "plugin expects "
    "(pod annotation k8s.v1.cni.cncf.io/networks) so a netdev of the HCA is inside the pod";

// What is wrong with the entry `index` names on one port; empty when it is the right kind.
std::string entry_problem(const NodeView& v, const RocePort& rp, int index) {
  const auto* g = gid_at(rp, index);
  bool v2_ipv4 = best_gid(v, rp) != nullptr;
  auto scanned = v.facts.roce_gids_scanned.find(port_id(*rp.port));
  if (g == nullptr && scanned != v.facts.roce_gids_scanned.end() && index > scanned->second)
    return "an entry past the ones read (the probe stops after 16 unused entries in a row)";
  if (g == nullptr)
    return "an empty entry";
  if (g->version == "v1" && v2_ipv4)
    return "RoCE v1";
  if (g->link_local() && v2_ipv4)
    return "a link-local GID";
  if (home(v, *g) == GidHome::unconfirmed)
    return "a GID on " + g->netdev + " that the pod's addresses do not confirm (not read)";
  if (!in_pod(v, *g))
    return "a GID on " + (g->netdev.empty() ? std::string("no netdev") : g->netdev) +
           ", not in the pod";
  return {};
}

// "index 3" when every port agrees, else "mlx5_0:1 index 3, mlx5_1:1 index 5".
std::string right_indexes(const NodeView& v, const std::vector<RocePort>& ports,
                          std::optional<int>& common) {
  std::set<int> seen;
  std::vector<std::string> each;
  for (const auto& rp : ports)
    if (const auto* g = best_gid(v, rp)) {
      seen.insert(g->index);
      each.push_back(port_id(*rp.port) + " index " + std::to_string(g->index));
    }
  if (seen.size() == 1)
    common = *seen.begin();
  if (seen.empty())
    return {};
  return seen.size() == 1 ? "index " + std::to_string(*seen.begin()) : join(each);
}

report::Finding judge_set_index(const NodeView& v, const std::vector<RocePort>& ports,
                                const std::string& var, const std::string& name, int index,
                                bool required) {
  std::map<std::string, std::vector<std::string>> by_problem; // "RoCE v1" -> its ports
  for (const auto& rp : ports)
    if (auto why = entry_problem(v, rp, index); !why.empty())
      by_problem[why].push_back(port_id(*rp.port));
  std::vector<std::string> bad;
  for (const auto& [why, ids] : by_problem)
    bad.push_back(why + " on " + port_range(ids));
  std::string set = var + "=" + std::to_string(index);
  if (bad.empty())
    return finding(Layer::ucx, name, Status::ok,
                   set + ": RoCE v2 IPv4 on the pod's netdev on " + ports_text(ports), {},
                   required);
  std::optional<int> common;
  auto right = right_indexes(v, ports, common);
  std::string hint = right.empty() ? "; no RoCE v2 IPv4 entry on the pod's netdevs"
                                   : "; the RoCE v2 IPv4 entry is " + right;
  std::string next = common ? "env: " + var + "=" + std::to_string(*common) : "";
  return finding(Layer::ucx, name, Status::warn, set + " names " + join(bad) + hint, next,
                 required);
}

std::optional<report::Finding> ucx_unset(const NodeView& v, const std::vector<RocePort>& ports) {
  std::optional<int> common;
  auto right = right_indexes(v, ports, common);
  std::vector<RocePort> without;
  for (const auto& rp : ports)
    if (best_gid(v, rp) == nullptr)
      without.push_back(rp);
  if (without.empty())
    return finding(Layer::ucx, "roce addressing", Status::ok,
                   std::string(dynamo::kUcxIbGidIndexVar) +
                       " unset: UCX picks a RoCE v2 IPv4 GID (" + right + ")",
                   common ? "optional, to pin it: env: " +
                                dynamo::setting(dynamo::kUcxIbGidIndexVar, std::to_string(*common))
                          : "",
                   false);
  return finding(Layer::ucx, "roce addressing", Status::warn,
                 "no RoCE v2 IPv4 GID on the pod's netdevs for " + ports_text(without) +
                     ": UCX falls back to RoCE v1 or IPv6 GIDs (routed RoCE fails)",
                 "ip -4 addr show dev " + pod_netdev_of(v, without.front()) +
                     " in the pod; give it an IPv4 address (the SR-IOV / macvlan network's IPAM)",
                 false);
}

} // namespace

bool gid_tables_known(const NodeView& v) {
  return v.facts.pod_netdevs && !roce_ports(v).empty();
}

// A netdev as the finding names it: a same-named one of the pod is the host's.
std::string netdev_label(const NodeView& v, const std::string& name) {
  const auto& mine = *v.facts.pod_netdevs;
  if (std::find(mine.begin(), mine.end(), name) == mine.end())
    return name;
  return name + " (the host's: the pod's " + name + " has other addresses)";
}

std::optional<report::Finding> roce_netns(const NodeView& v) {
  if (!v.facts.pod_netdevs)
    return std::nullopt;
  auto ports = roce_ports(v);
  if (ports.empty())
    return std::nullopt;
  std::vector<RocePort> outside, unconfirmed;
  std::set<std::string> netdevs, unsure;
  for (const auto& rp : ports) {
    if (addressable(v, rp))
      continue;
    bool maybe = std::any_of(rp.gids.begin(), rp.gids.end(),
                             [&](const RoceGid* g) { return home(v, *g) == GidHome::unconfirmed; });
    (maybe ? unconfirmed : outside).push_back(rp);
    for (const auto* g : rp.gids)
      if (!g->netdev.empty())
        (maybe ? unsure : netdevs).insert(maybe ? g->netdev : netdev_label(v, g->netdev));
  }
  if (outside.empty() && unconfirmed.empty())
    return finding(Layer::rdma_access, "roce gids", Status::ok,
                   "RoCE GIDs of " + ports_text(ports) +
                       " sit on the pod's own netdevs (their addresses are the pod's)");
  std::string mine = v.facts.pod_netdevs->empty() ? "none" : join(*v.facts.pod_netdevs);
  std::vector<std::string> parts;
  if (!outside.empty())
    parts.push_back(ports_text(outside) + " (RoCE): every GID sits on " +
                    join(std::vector<std::string>(netdevs.begin(), netdevs.end())) +
                    ", not in the pod's network namespace (the pod has " + mine +
                    "): the pod cannot address these ports (ibv_create_ah ... sgid_index: No "
                    "such device)");
  if (!unconfirmed.empty())
    parts.push_back(ports_text(unconfirmed) + " (RoCE): GIDs on " +
                    join(std::vector<std::string>(unsure.begin(), unsure.end())) +
                    ", named like the pod's netdevs, but the pod's addresses were not read: "
                    "cannot tell them from host netdevs of the same name");
  Status s = outside.size() == ports.size() ? Status::fail : Status::warn;
  return finding(Layer::rdma_access, "roce gids", s, join(parts, "; "), netns_next);
}

std::vector<report::Finding> gid_index(const NodeView& v) {
  std::vector<report::Finding> out;
  if (!v.facts.pod_netdevs)
    return out;
  auto ports = roce_ports(v);
  if (ports.empty())
    return out;
  auto ucx = env(v.facts, std::string(dynamo::kUcxIbGidIndexVar));
  auto ucx_index = ucx ? text::to_int(text::trim(*ucx)) : std::nullopt; // "auto" reads as unset
  if (ucx_index)
    out.push_back(judge_set_index(v, ports, std::string(dynamo::kUcxIbGidIndexVar),
                                  "roce addressing", static_cast<int>(*ucx_index), true));
  else if (auto f = ucx_unset(v, ports))
    out.push_back(*f);
  if (auto nccl = env(v.facts, std::string(dynamo::kNcclIbGidIndexVar)))
    if (auto n = text::to_int(text::trim(*nccl)))
      out.push_back(judge_set_index(v, ports, std::string(dynamo::kNcclIbGidIndexVar),
                                    "nccl gid index", static_cast<int>(*n), false));
  return out;
}

} // namespace icheck::rules::node
