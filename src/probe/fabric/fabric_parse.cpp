#include "probe/fabric/adapters.hpp"
#include "probe/fabric/fabric_parsers.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <set>

namespace icheck::probe {
namespace {

std::string unread_as_empty(std::string_view s) {
  return s == "-" ? std::string() : std::string(s);
}

bool version_word(std::string_view w) {
  return w == "v1" || w == "v2" || w == "-";
}

// DEV PORT INDEX GID then, after an optional IPv4, VER and an optional netdev.
std::optional<RoceGid> gid_line(std::string_view line) {
  auto w = text::words(line);
  if (w.size() < 5 || w.size() > 7)
    return std::nullopt;
  auto port = text::to_int(w[1]);
  auto index = text::to_int(w[2]);
  if (!port || !index || w[3].find(':') == std::string_view::npos)
    return std::nullopt;
  std::size_t ver = version_word(w[4]) ? 4 : 5;
  if (ver >= w.size() || !version_word(w[ver]))
    return std::nullopt;
  RoceGid g{std::string(w[0]),
            static_cast<int>(*port),
            static_cast<int>(*index),
            std::string(w[3]),
            {},
            unread_as_empty(w[ver])};
  if (ver + 1 < w.size())
    g.netdev = unread_as_empty(w[ver + 1]);
  return g;
}

// The pod's HCAs: those whose uverbsN node is in the pod's /dev/infiniband.
std::set<std::string> allocated_names(const NodeFacts& f) {
  std::set<std::string> out;
  for (const auto& entry : f.dev_infiniband)
    if (auto it = f.uverbs_ibdev.find(entry); it != f.uverbs_ibdev.end())
      out.insert(it->second);
  return out;
}

// The HCAs the node has, from the most universal source that saw any (as rules/ reads them).
std::size_t node_hcas(const NodeFacts& f) {
  if (!f.sysfs_devices.empty())
    return f.sysfs_devices.size();
  return f.ibstat.devices.empty() ? f.verbs.devices.size() : f.ibstat.devices.size();
}

// One uverbs node per HCA: as many as the node's HCAs (or one HCA, or none) leave no doubt.
bool some_of_the_hcas(const NodeFacts& f) {
  const auto nodes = f.uverbs_nodes();
  return nodes > 0 && nodes < node_hcas(f);
}

// Only when the map names at least one sysfs HCA as the pod's: otherwise "unknown", never "none".
void split_allocated(NodeFacts& f) {
  auto mine = allocated_names(f);
  auto is_mine = [&](const IbDevice& d) { return mine.count(d.name) > 0; };
  if (std::none_of(f.sysfs_devices.begin(), f.sysfs_devices.end(), is_mine)) {
    f.allocation_known = !some_of_the_hcas(f);
    return;
  }
  auto others = std::stable_partition(f.sysfs_devices.begin(), f.sysfs_devices.end(), is_mine);
  f.unallocated_devices.assign(std::make_move_iterator(others),
                               std::make_move_iterator(f.sysfs_devices.end()));
  f.sysfs_devices.erase(others, f.sysfs_devices.end());
}

void rate_adapters(std::vector<IbDevice>& devices) {
  for (auto& d : devices) {
    if (const auto* spec = adapter_spec(d.ca_type))
      d.model = spec->model;
    for (auto& p : d.ports)
      p.expected_gbps = expected_rate_gbps(d, p);
  }
}

} // namespace

std::map<std::string, std::string> parse_uverbs_ibdev(std::string_view out) {
  std::map<std::string, std::string> map;
  for (auto line : text::lines(out))
    if (auto w = text::words(line); w.size() == 2 && w[0].starts_with("uverbs"))
      map[std::string(w[0])] = w[1];
  return map;
}

std::vector<RoceGid> parse_roce_gids(std::string_view out) {
  std::vector<RoceGid> gids;
  for (auto line : text::lines(out))
    if (auto g = gid_line(line))
      gids.push_back(std::move(*g));
  return gids;
}

std::map<std::string, int> parse_roce_gids_scanned(std::string_view out) {
  std::map<std::string, int> scanned;
  for (auto line : text::lines(out)) {
    auto w = text::words(line);
    if (w.size() != 4 || w[2] != "scanned")
      continue;
    if (auto last = text::to_int(w[3]))
      scanned[std::string(w[0]) + ":" + std::string(w[1])] = static_cast<int>(*last);
  }
  return scanned;
}

PodAddresses parse_pod_addrs(std::string_view out, bool whole) {
  PodAddresses a;
  std::set<std::string> v4, v6;
  bool v4_read = whole, v6_read = whole;
  for (auto line : text::lines(out)) {
    auto w = text::words(line);
    if (w.size() == 2 && w[1] == "unread") {
      if (w[0] == "inet")
        v4_read = false;
      else if (w[0] == "inet6")
        v6_read = false;
    } else if (w.size() == 2 && w[0] == "inet")
      v4.emplace(w[1]);
    else if (w.size() == 3 && w[0] == "inet6" && w[2].size() == 32)
      v6.insert(std::string(w[1]) + " " + text::lower(w[2]));
    else if (w.size() == 3 && w[0] == "link")
      a.macs[std::string(w[1])] = text::lower(w[2]);
  }
  if (v4_read)
    a.ipv4 = std::move(v4);
  if (v6_read)
    a.ipv6 = std::move(v6);
  return a;
}

void read_pod_fabric(NodeFacts& f) {
  if (const Tool* t = f.tool("uverbs_ibdev"); t && t->found)
    f.uverbs_ibdev = parse_uverbs_ibdev(t->output);
  split_allocated(f);
  rate_adapters(f.sysfs_devices);
  rate_adapters(f.unallocated_devices);
  rate_adapters(f.ibstat.devices);
  if (const Tool* t = f.tool("roce_gids"); t && t->found) {
    f.roce_gids = parse_roce_gids(t->output);
    f.roce_gids_scanned = parse_roce_gids_scanned(t->output);
  }
  if (const Tool* t = f.tool("pod_netdevs"); t && t->found && !t->truncated) {
    std::vector<std::string> names;
    for (auto line : text::lines(t->output))
      if (auto n = text::trim(line); !n.empty())
        names.emplace_back(n);
    f.pod_netdevs = std::move(names);
  }
  if (const Tool* t = f.tool("pod_addrs"); t && t->found)
    f.pod_addrs = parse_pod_addrs(t->output, !t->truncated);
}

} // namespace icheck::probe
