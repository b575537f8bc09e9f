#include "rules/pair/same_node.hpp"

#include "rules/node/node_view.hpp"
#include "rules/nvlink/nvlink_domain.hpp"

#include <algorithm>

namespace icheck::rules {
namespace {

using report::Status;

enum class Rdma { usable, efa_only, none, unknown };

struct RdmaState {
  Rdma kind = Rdma::unknown;
  std::string why;  // "mlx5_0..7:1 Active", "no /dev/infiniband/uverbs*", ...
};

// The RDMA ports this pod can open: its uverbs nodes, and the Active ports of its HCAs (sysfs
// keeps only the allocated ones when the uverbs map is known).
RdmaState rdma_state(const probe::NodeFacts& f) {
  if (node::cut_before(f, "dev_infiniband"))
    return {Rdma::unknown, "the probe's output was cut before /dev/infiniband was listed"};
  if (f.uverbs_nodes() == 0)
    return {Rdma::none, f.dev_infiniband_present ? "no /dev/infiniband/uverbs*"
                                                 : "no /dev/infiniband (no RDMA device mounted)"};
  std::vector<std::string> active;
  std::size_t total = 0;
  bool only_efa = true;
  for (const auto& d : *node::rdma_devices(f).list) {
    for (const auto& p : d.ports) {
      ++total;
      if (!node::is_active(p))
        continue;
      active.push_back(node::port_id(p));
      only_efa = only_efa && p.link_layer == probe::LinkLayer::efa;
    }
  }
  if (active.empty())
    return {Rdma::none, "no Active RDMA port"};
  // An Active port of an HCA the pod may not own proves nothing while another is not Active.
  if (auto unknown = node::allocation_unknown(f); !unknown.empty() && active.size() < total)
    return {Rdma::unknown, unknown + ", and not every port is Active"};
  const std::string ports = std::to_string(active.size()) + " Active RDMA port" +
                            (active.size() == 1 ? "" : "s") + " (" + node::port_range(active) + ")";
  return {only_efa ? Rdma::efa_only : Rdma::usable, ports};
}

// Both pods hold an IMEX channel and their GPUs joined the same NVLink domain.
bool one_nvlink_domain(const probe::NodeFacts& a, const probe::NodeFacts& b) {
  auto domain = [](const probe::NodeFacts& f) {
    if (f.platform.imex_channels.empty() || !f.platform.fabric)
      return std::string();
    return fabric_domain(*f.platform.fabric);
  };
  const auto da = domain(a);
  return !da.empty() && da == domain(b);
}

struct PairVerdict {
  Status status = Status::ok;
  std::string detail;
  std::string next;
};

std::string side(const SameNodePod& p, const RdmaState& s) {
  return p.name + ": " + s.why;
}

std::string namespaces(const SameNodePod& a, const SameNodePod& b) {
  if (a.host_ipc && b.host_ipc)
    return "hostIPC without hostPID on both (CUDA IPC handles do not cross PID namespaces)";
  if (a.host_ipc || b.host_ipc)
    return "hostIPC on only one of them";
  return "separate IPC and PID namespaces; no hostIPC/hostPID";
}

PairVerdict judge_pair(const SameNodePod& self, const SameNodePod& other) {
  const auto mine = rdma_state(*self.facts);
  const auto theirs = rdma_state(*other.facts);
  if (mine.kind == Rdma::usable && theirs.kind == Rdma::usable)
    return {};
  if (one_nvlink_domain(*self.facts, *other.facts))
    return {};
  const std::string with = "shares node " + self.node + " with " +
                           std::string(dynamo::role_label(other.role)) + " pod " + other.name;
  const std::string give = "give both pods an RDMA device (resources.limits rdma/*: KV then uses "
                           "the NIC's loopback), or place prefill and decode on nodes with RDMA";
  if (mine.kind == Rdma::unknown || theirs.kind == Rdma::unknown)
    return {Status::skipped,
            with + ": whether KV between them can use RDMA is unknown (" +
                side(mine.kind == Rdma::unknown ? self : other,
                     mine.kind == Rdma::unknown ? mine : theirs) +
                ")",
            "rerun the check"};
  const std::string devices = "RDMA: " + side(self, mine) + "; " + side(other, theirs);
  if (mine.kind != Rdma::none && theirs.kind != Rdma::none)
    return {Status::warn,
            with +
                ": EFA has no loopback, so KV between them takes libfabric's same-node path, "
                "which separate pods may not share (not verified; " +
                devices + ")",
            give};
  if (self.host_ipc && other.host_ipc && self.host_pid && other.host_pid)
    return {Status::warn,
            with +
                ": hostIPC and hostPID share the node's namespaces, so UCX cuda_ipc may carry "
                "KV between them (not verified); without it KV goes over TCP (" +
                devices + ")",
            give};
  const std::string lacking = mine.kind != Rdma::none     ? other.name + " holds no RDMA device"
                              : theirs.kind != Rdma::none ? "this pod holds no RDMA device"
                                                          : "neither pod holds an RDMA device";
  return {Status::fail,
          with + ": separate pods cannot use NVLink/CUDA IPC between them (" +
              namespaces(self, other) + ") and " + lacking +
              ", so KV between them goes over TCP (" + devices + ")",
          give};
}

bool other_half(const SameNodePod& a, const SameNodePod& b) {
  return dynamo::is_split(a.role) && dynamo::is_split(b.role) && a.role != b.role;
}

}  // namespace

std::vector<std::vector<report::Finding>> same_node_findings(const std::vector<SameNodePod>& pods) {
  std::vector<std::vector<report::Finding>> out(pods.size());
  for (std::size_t i = 0; i < pods.size(); ++i) {
    const auto& self = pods[i];
    if (self.facts == nullptr || self.node.empty())
      continue;
    PairVerdict worst;
    std::size_t partners = 0;
    for (const auto& other : pods) {
      if (other.facts == nullptr || other.node != self.node || !other_half(self, other))
        continue;
      auto verdict = judge_pair(self, other);
      if (verdict.status == Status::ok)
        continue;
      ++partners;
      if (report::severity(verdict.status) > report::severity(worst.status))
        worst = std::move(verdict);
    }
    if (partners == 0)
      continue;
    if (partners > 1)
      worst.detail += "; " + std::to_string(partners - 1) + " more such pod" +
                      (partners == 2 ? "" : "s") + " on this node";
    out[i].push_back(node::finding(report::Layer::nvlink, "same node", worst.status,
                                   std::move(worst.detail), std::move(worst.next)));
  }
  return out;
}

}  // namespace icheck::rules
