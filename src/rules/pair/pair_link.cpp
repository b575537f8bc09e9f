#include "rules/pair/pair_link.hpp"

#include "dynamo/transport_vars.hpp"
#include "rules/fabric/link_rules.hpp"
#include "rules/node/node_view.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace icheck::rules {
namespace {

using probe::LinkLayer;
using report::Layer;
using report::Status;

// What one side's KV ports offer a peer.
struct Side {
  const PairPod* pod = nullptr;
  std::map<LinkLayer, std::vector<std::string>> layers;    // layer -> ports
  std::map<int, std::vector<std::string>> rdma_mtu;        // bytes -> ports
  std::map<int, std::vector<std::string>> netdev_mtu;      // RoCE netdev MTU -> ports
  std::map<std::string, std::vector<std::string>> prefix;  // IB subnet prefix -> ports
  std::set<std::string> gid_types;                         // "v1", "v2" on RoCE KV ports
  std::set<std::string> families;                          // "IPv4", "IPv6": routable RoCE GIDs
};

void read_gids(const probe::NodeFacts& f, const probe::IbPort& p, Side& s) {
  for (const auto& g : f.roce_gids) {
    if (g.device != p.device || g.port != p.port)
      continue;
    if (!g.version.empty())
      s.gid_types.insert(g.version);
    if (g.ipv4())
      s.families.insert("IPv4");
    else if (!g.link_local())
      s.families.insert("IPv6");
  }
}

Side side_of(const PairPod& pod) {
  Side s;
  s.pod = &pod;
  NodeContext ctx;
  auto view = node::make_view(*pod.facts, ctx);
  for (const auto* p : node::kv_ports(view)) {
    auto id = node::port_id(*p);
    s.layers[p->link_layer].push_back(id);
    auto m = node::port_mtu(*pod.facts, *p);
    if (m.rdma)
      s.rdma_mtu[*m.rdma].push_back(id);
    if (m.netdev)
      s.netdev_mtu[*m.netdev].push_back(m.netdev_name);
    if (p->link_layer == LinkLayer::infiniband)
      if (auto it = pod.facts->link.ports.find(id); it != pod.facts->link.ports.end())
        if (auto prefix = it->second.subnet_prefix(); !prefix.empty())
          s.prefix[prefix].push_back(id);
    if (p->link_layer == LinkLayer::ethernet)
      read_gids(*pod.facts, *p, s);
  }
  return s;
}

std::string who(const Side& s, const char* role) {
  return std::string(role) + " pod " + s.pod->name + " (node " +
         (s.pod->node.empty() ? "?" : s.pod->node) + ")";
}

std::string layer_word(LinkLayer l) {
  switch (l) {
  case LinkLayer::infiniband:
    return "InfiniBand";
  case LinkLayer::ethernet:
    return "RoCE";
  case LinkLayer::efa:
    return "AWS EFA";
  default:
    return "unknown";
  }
}

template <typename Key, typename Word>
std::string listing(const std::map<Key, std::vector<std::string>>& by, Word word) {
  std::vector<std::string> parts;
  for (const auto& [k, ports] : by)
    parts.push_back(word(k) + " on " + node::port_range(ports));
  return node::join(parts, ", ");
}

template <typename Key>
bool disjoint(const std::map<Key, std::vector<std::string>>& a,
              const std::map<Key, std::vector<std::string>>& b) {
  if (a.empty() || b.empty())
    return false;
  return std::none_of(a.begin(), a.end(), [&](const auto& kv) { return b.count(kv.first) > 0; });
}

template <typename Key>
bool differ(const std::map<Key, std::vector<std::string>>& a,
            const std::map<Key, std::vector<std::string>>& b) {
  if (a.empty() || b.empty())
    return false;
  if (a.size() != b.size())
    return true;
  return !std::equal(a.begin(), a.end(), b.begin(),
                     [](const auto& x, const auto& y) { return x.first == y.first; });
}

bool disjoint_sets(const std::set<std::string>& a, const std::set<std::string>& b) {
  if (a.empty() || b.empty())
    return false;
  return std::none_of(a.begin(), a.end(), [&](const std::string& x) { return b.count(x) > 0; });
}

std::string both(const Side& p, const Side& d, const std::string& pv, const std::string& dv) {
  return who(p, "prefill") + ": " + pv + "; " + who(d, "decode") + ": " + dv;
}

std::vector<report::Finding> judge(const Side& p, const Side& d) {
  std::vector<report::Finding> out;
  auto layers = [](const Side& s) { return listing(s.layers, layer_word); };
  auto bytes = [](int v) { return std::to_string(v); };
  auto same = [](const std::string& v) { return v; };
  if (disjoint(p.layers, d.layers)) {
    out.push_back(node::finding(
        Layer::fabric, "pair link layer", Status::fail,
        "KV ports on different link layers, no RDMA path between them: " +
            both(p, d, layers(p), layers(d)),
        "schedule prefill and decode onto nodes of one fabric (a nodeSelector or "
        "node affinity on the fabric's node label), or give both the same RDMA resource"));
    return out;  // no path at all: how it would be configured does not matter
  }
  if (differ(p.rdma_mtu, d.rdma_mtu) || differ(p.netdev_mtu, d.netdev_mtu)) {
    auto mtus = [&](const Side& s) {
      auto t = "RDMA MTU " + listing(s.rdma_mtu, bytes);
      if (!s.netdev_mtu.empty())
        t += ", netdev MTU " + listing(s.netdev_mtu, bytes);
      return t;
    };
    out.push_back(node::finding(
        Layer::fabric, "pair mtu", Status::warn,
        "MTUs differ between the pair's KV ports: " + both(p, d, mtus(p), mtus(d)) +
            " (a side that does not settle on the smaller one gets QP errors or hangs: NCCL #1524)",
        "give every node's KV ports one MTU (IB: the subnet manager's partition MTU; RoCE: the "
        "netdev and switch MTU, e.g. 9000)"));
  }
  if (disjoint(p.prefix, d.prefix))
    out.push_back(node::finding(
        Layer::fabric, "pair subnet", Status::warn,
        "InfiniBand subnet prefixes differ (GID 0): " +
            both(p, d, listing(p.prefix, same), listing(d.prefix, same)) +
            ": two IB subnets meet only through an IB router",
        "check that both nodes hang off one subnet manager's fabric (sminfo; ibv_devinfo -v | grep "
        "'GID\\[  0\\]'), or that an IB router joins the subnets"));
  auto set_text = [](const std::set<std::string>& s) {
    return node::join(std::vector<std::string>(s.begin(), s.end()), "/");
  };
  if (disjoint_sets(p.gid_types, d.gid_types) || disjoint_sets(p.families, d.families)) {
    auto gids = [&](const Side& s) {
      return "RoCE " + set_text(s.gid_types) +
             (s.families.empty() ? "" : ", " + set_text(s.families)) + " GIDs";
    };
    out.push_back(node::finding(
        Layer::fabric, "pair gids", Status::warn,
        "RoCE GIDs do not meet: " + both(p, d, gids(p), gids(d)) +
            " (a RoCE v1 GID cannot reach a v2 one, an IPv4 GID not an IPv6 one)",
        "give both nodes' RoCE netdevs addresses of one family and one RoCE version "
        "(" +
            std::string(dynamo::kUcxIbGidIndexVar) + " names the entry): show_gids on each node"));
  }
  return out;
}

}  // namespace

PairLinkFindings pair_link_findings(const PairPod& prefill, const PairPod& decode) {
  if (prefill.facts == nullptr || decode.facts == nullptr)
    return {};
  auto found = judge(side_of(prefill), side_of(decode));
  return {found, found};
}

}  // namespace icheck::rules
