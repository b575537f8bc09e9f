#include "rules/transfer/transfer_rules.hpp"

#include "dynamo/transport_vars.hpp"
#include "probe/transfer/nixl_python_script.hpp"
#include "probe/transfer/transfer_output.hpp"
#include "rules/node/node_view.hpp"
#include "util/percent.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

namespace icheck::rules {
namespace {

using probe::TransferFailureKind;
using report::Finding;
using report::Layer;
using report::Status;

constexpr double kTcpClassGBs = 3.0; // TCP fallback measures 1-2 GB/s (Dynamo guide)
constexpr double kLineRateShare = 0.5;
constexpr double kAboveRate = 1.05; // beyond rounding and the kernel's rate labels
constexpr std::size_t kLastLines = 3;

Finding transfer_finding(Status s, std::string detail, std::string next = {},
                         Layer layer = Layer::nixl) {
  Finding f;
  f.name = "transfer";
  f.layer = layer;
  f.status = s;
  f.detail = std::move(detail);
  f.next = std::move(next);
  f.is_transfer = true;
  return f;
}

std::string both(const SideOutput& s) {
  return s.out + "\n" + s.err;
}

// The tool's own layer: where an unknown failure of it is reported.
Layer tool_layer(TestTool t) {
  return t == TestTool::ucx_perftest ? Layer::ucx : Layer::nixl;
}

std::string pair_name(const TransferOutcome& o) {
  auto side = [](const std::string& pod, const std::string& node) {
    return node.empty() ? pod : pod + " (node " + node + ")";
  };
  return std::string(to_string(o.tool)) + " " + side(o.prefill, o.prefill_node) + " -> " +
         side(o.decode, o.decode_node);
}

std::optional<double> measured_gbs(const TransferOutcome& o) {
  for (const auto* side : {&o.initiator, &o.listener}) {
    auto text = both(*side);
    if (o.tool == TestTool::ucx_perftest) {
      if (auto v = probe::parse_ucx_perftest(text).gb_per_s())
        return v;
    } else if (o.tool == TestTool::nixl_python) {
      if (auto v = probe::parse_nixl_python(text).gb_per_s)
        return v;
    } else if (auto v = probe::parse_nixlbench(text).gb_per_s()) {
      return v;
    }
  }
  return std::nullopt;
}

const char* who(const TransferOutcome& o, const SideOutput* side) {
  return side == &o.listener ? "decode side" : "prefill side";
}

bool ended_by_deadline(const SideOutput& s) {
  // 124: coreutils `timeout`; 143/137: busybox's `timeout` (or a kill from outside) leaves the
  // command's own death by SIGTERM/SIGKILL.
  return s.timed_out || s.exit_code == 124 || s.exit_code == 128 + 15 || s.exit_code == 128 + 9;
}

struct SideFailure {
  const SideOutput* side = nullptr;
  probe::TransferFailure failure;
};

// The most specific failure either side shows (the kinds are ordered by specificity).
SideFailure first_failure(const TransferOutcome& o) {
  SideFailure best;
  for (const auto* side : {&o.listener, &o.initiator}) {
    auto f = probe::detect_transfer_failure(both(*side));
    if (f.kind != TransferFailureKind::none &&
        (!best.side || static_cast<int>(f.kind) < static_cast<int>(best.failure.kind)))
      best = {side, f};
  }
  return best;
}

std::optional<Layer> failure_layer(TransferFailureKind k, TestTool tool) {
  switch (k) {
  case TransferFailureKind::unreachable:
  case TransferFailureKind::unsupported_memory:
  case TransferFailureKind::assertion:
  case TransferFailureKind::ucx_error:
  case TransferFailureKind::connection_refused:
    return Layer::ucx;
  case TransferFailureKind::verbs:
    return Layer::rdma_access;
  case TransferFailureKind::backend_missing:
  case TransferFailureKind::nixl_error:
    return Layer::nixl;
  case TransferFailureKind::crash:
    return tool_layer(tool);
  default:
    return std::nullopt; // etcd, no peer, usage: the test did not get to the data path
  }
}

bool connected(const TransferOutcome& o) {
  return probe::shows_connected(both(o.listener)) || probe::shows_connected(both(o.initiator));
}

// The listener had its head start and did not fail on its own: a refused connection is then
// the path between the pods, not a listener that was not there yet.
bool listener_was_up(const TransferOutcome& o) {
  const auto& l = o.listener;
  return l.ran && probe::detect_transfer_failure(both(l)).kind == TransferFailureKind::none &&
         (l.exit_code == 0 || ended_by_deadline(l));
}

const std::string kHangCauses =
    "data did not move: typical of PCIe ACS/IOMMU blocking GPUDirect P2P, or a RoCE GID/route "
    "problem (" +
    std::string(dynamo::kUcxIbGidIndexVar) + ", " + std::string(dynamo::kUcxIbAddrTypeVar) + ")";

std::optional<Finding> judge_failure(const TransferOutcome& o) {
  auto [side, failure] = first_failure(o);
  if (!side)
    return std::nullopt;
  const std::string line = std::string(who(o, side)) + ": " + failure.line;
  if (failure.kind == TransferFailureKind::stalled && connected(o))
    return transfer_finding(Status::fail,
                            pair_name(o) + " connected, then " + line + ": " + kHangCauses);
  if (failure.kind == TransferFailureKind::connection_refused && !listener_was_up(o))
    return transfer_finding(Status::skipped, "transfer test did not connect: the decode side was "
                                             "not listening; " +
                                                 line);
  auto layer = failure_layer(failure.kind, o.tool);
  if (!layer)
    return transfer_finding(Status::skipped, "transfer test did not complete: " + line);
  return transfer_finding(
      Status::fail, pair_name(o) + ": " + std::string(probe::to_string(failure.kind)) + ": " + line,
      {}, *layer);
}

// No figure and no known error: a deadline, a start failure, or an unknown non-zero exit.
Finding judge_incomplete(const TransferOutcome& o) {
  for (const auto* side : {&o.listener, &o.initiator}) {
    if (!side->ran)
      return transfer_finding(Status::skipped,
                              std::string(who(o, side)) + " did not start: " +
                                  (side->start_error.empty() ? "not run" : side->start_error));
  }
  const bool deadline = ended_by_deadline(o.listener) || ended_by_deadline(o.initiator);
  const std::string within = " within " + std::to_string(o.timeout_s) + " s";
  if (deadline && connected(o))
    return transfer_finding(Status::fail, pair_name(o) + " connected, then no result" + within +
                                              ": " + kHangCauses);
  for (const auto* side : {&o.listener, &o.initiator}) {
    if (!ended_by_deadline(*side) && side->exit_code != 0) {
      auto tail = probe::last_lines(both(*side), kLastLines);
      return transfer_finding(Status::fail,
                              pair_name(o) + ": " + who(o, side) + " exited " +
                                  std::to_string(side->exit_code) +
                                  (tail.empty() ? "" : ": " + tail),
                              {}, tool_layer(o.tool));
    }
  }
  if (deadline) {
    auto tail = probe::last_lines(both(o.initiator) + "\n" + both(o.listener), 1);
    return transfer_finding(Status::skipped,
                            "transfer test never connected" + within +
                                (tail.empty() ? "" : " (last line: " + tail + ")"));
  }
  return transfer_finding(Status::skipped, "transfer test printed no bandwidth");
}

Finding judge_bandwidth(const TransferOutcome& o, double measured, const PairRates& rates) {
  std::string what = pair_name(o) + ": " + gbs_text(measured);
  if (!std::isfinite(measured) || measured <= 0)
    return transfer_finding(Status::warn,
                            "implausible figure: " + what + " (not a positive number)");
  if (o.cross_node && rates.sum_gbps && measured > kAboveRate * *rates.sum_gbps / 8.0)
    return transfer_finding(Status::warn, "implausible figure: " + what +
                                              " is more than the pair's KV ports carry (" +
                                              gbs_text(*rates.sum_gbps / 8.0) + " together)");
  if (measured < kTcpClassGBs)
    return transfer_finding(Status::fail, "KV transfer falls back to TCP: " + what,
                            "check the rdma-access, gpudirect and ucx layers of both pods");
  if (!o.cross_node)  // its next (a pair on different nodes) is the caller's: it knows the pods
    return transfer_finding(Status::warn, what + " on one node: RDMA was not exercised");
  if (!rates.port_gbps)
    return transfer_finding(Status::warn, what + "; line rate unknown, so not judged against it");
  double line_gbs = *rates.port_gbps / 8.0;
  what += " (" + percent_text(measured, line_gbs) + " % of " + gbs_text(line_gbs) + " line rate";
  // One port cannot carry more than its line rate: UCX striped the transfer over several
  // rails (UCX_MAX_RNDV_RAILS), or it went over (multi-node) NVLink rather than the NIC.
  if (measured > kAboveRate * line_gbs) {
    what += " of one port";
    if (!rates.sum_gbps) // what the other ports add is not known: nothing bounds the figure
      return transfer_finding(Status::warn, "implausible figure: " + what +
                                                ", and the pair's other KV ports are not known)");
    what += ": several rails or NVLink carried it";
  }
  what += ")";
  if (measured >= kLineRateShare * line_gbs)
    return transfer_finding(Status::ok, what);
  return transfer_finding(Status::warn, what + ": below half of line rate",
                          "check " + std::string(dynamo::kUcxNetDevicesVar) +
                              " names the GPU-affine NICs and that GPUDirect is active");
}

std::string mib(long long bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

// "GPU 2 memory (256 MiB, CUDA runtime)" or "host memory (64 MiB)".
std::string memory_phrase(const probe::NixlPythonMemory& m) {
  if (m.kind != "VRAM")
    return "host memory (" + mib(m.bytes) + ")";
  const std::string via = m.via == "CUDA" ? "CUDA runtime" : m.via;
  return "GPU " + std::to_string(m.gpu.value_or(0)) + " memory (" + mib(m.bytes) + ", " + via + ")";
}

std::string memory_text(const std::vector<probe::NixlPythonMemory>& mem) {
  if (mem.size() == 2 && memory_phrase(mem[0]) != memory_phrase(mem[1]))
    return "decode " + memory_phrase(mem[0]) + ", prefill " + memory_phrase(mem[1]);
  return mem.empty() ? std::string("memory not reported")
                     : memory_phrase(mem[0]) + " on both sides";
}

const probe::NixlPythonMemory* host_memory(const std::vector<probe::NixlPythonMemory>& mem) {
  for (const auto& m : mem)
    if (m.kind != "VRAM")
      return &m;
  return nullptr;
}

Finding corrupted(const TransferOutcome& o, const probe::NixlPythonCorruption& c) {
  const std::string after = c.op == "READ" ? "reading it back" : "the WRITE";
  return transfer_finding(Status::fail,
                          pair_name(o) + ": data corrupted in transit: the " + c.side +
                              " side found byte " + std::to_string(c.offset) + " (block " +
                              std::to_string(c.block) + ") " + c.got + ", expected " + c.expected +
                              " after " + after + ", whatever the bandwidth",
                          "check GPUDirect (nvidia_peermem/DMA-BUF, PCIe ACS/IOMMU) and the NICs "
                          "of both nodes; a VM's GPUDirect can return garbage");
}

// A side whose output passed the cap was stopped there: whatever it did next is not known.
std::optional<Finding> cut_short(const TransferOutcome& o) {
  for (const auto* side : {&o.listener, &o.initiator}) {
    if (!side->truncated)
      continue;
    const auto& kept = side->out.size() >= side->err.size() ? side->out : side->err;
    std::size_t longest = 0;
    for (auto line : text::lines(kept))
      longest = std::max(longest, line.size());
    std::string line_note;
    if (longest >= (std::size_t{1} << 20))
      line_note = " (one line of about " +
                  mib(static_cast<long long>(longest + (std::size_t{1} << 19))) +
                  " when it was cut)";
    return transfer_finding(Status::skipped,
                            "the " + std::string(who(o, side)) + " printed more than the " +
                                mib(static_cast<long long>(kept.size())) + " output cap" +
                                line_note + ", so the test was stopped: not judged");
  }
  return std::nullopt;
}

// "the decode side refused 2 connections without this run's seed on the test port (the first
// from 10.0.0.9: closed before a first line)"; "" when none was refused.
std::string strangers_text(const probe::NixlPythonResult& r) {
  if (r.strangers <= 0)
    return {};
  const bool decode = r.stranger_side != "prefill";
  std::string text = "the " + std::string(decode ? "decode" : "prefill") + " side refused " +
                     std::to_string(r.strangers) +
                     (r.strangers == 1 ? " connection" : " connections") +
                     (decode ? " without this run's seed on the test port"
                             : " to the decode side's test port that answered without this run's "
                               "seed");
  if (!r.stranger_peer.empty())
    text += " (the first " + std::string(decode ? "from " : "to ") + r.stranger_peer +
            (r.stranger_why.empty() ? "" : ": " + r.stranger_why) + ")";
  return text;
}

Finding with_strangers(Finding f, const probe::NixlPythonResult& r) {
  if (auto note = strangers_text(r); !note.empty())
    f.detail += "; " + note;
  return f;
}

// The worker's own NIXL: corruption fails whatever else; then errors as for any tool; a side
// that could not run it (API, no room on the GPU) is skipped; a figure counts only with the
// data checked on both sides, and host memory never proves GPUDirect.
Finding judge_nixl_python(const TransferOutcome& o, const PairRates& rates) {
  auto r = probe::parse_nixl_python(both(o.listener) + "\n" + both(o.initiator));
  if (r.corruption)
    return with_strangers(corrupted(o, *r.corruption), r);
  if (auto cut = cut_short(o))
    return *cut;
  // Someone else held the test port and the pair never met: not the pair's fault, nor its path.
  if (r.strangers > 0 && !connected(o))
    return transfer_finding(Status::skipped, "transfer test did not connect: " + strangers_text(r) +
                                                 "; another client is on port " +
                                                 std::to_string(probe::kNixlPythonPort) +
                                                 ": rerun, or find it (ss -tnp in the pod)");
  if (auto failed = judge_failure(o))
    return with_strangers(*failed, r);
  if (!r.skipped.empty())
    return transfer_finding(Status::skipped, "NIXL Python transfer test not run: " + r.skipped);
  if (!r.gb_per_s || !r.verified_both()) {
    if (r.gb_per_s && o.listener.exit_code == 0 && o.initiator.exit_code == 0)
      return transfer_finding(Status::skipped, "NIXL Python transfer test ended without checking "
                                               "the data on both sides");
    return with_strangers(judge_incomplete(o), r);
  }
  auto f = judge_bandwidth(o, *r.gb_per_s, rates);
  f.detail += "; data verified both ways (" + std::to_string(r.blocks) + " blocks of " +
              mib(r.block_bytes) + ", pattern unique to this run), " + memory_text(r.memory);
  if (const auto* host = host_memory(r.memory)) {
    f.detail += "; host memory only (" + host->why.substr(0, 160) + "): GPUDirect not tested";
    if (f.status == Status::ok) {
      f.status = Status::warn;
      f.next = "give the test GPU memory: the CUDA runtime (libcudart), cupy or torch in the "
               "image, and a GPU visible in the container";
    }
  }
  return with_strangers(std::move(f), r);
}

template <typename Add>
std::optional<double> over_kv_ports(const probe::NodeFacts& facts, const NodeContext& ctx,
                                    Add add) {
  auto view = node::make_view(facts, ctx);
  if (!view.devices)
    return std::nullopt;
  std::optional<double> acc;
  for (const auto& dev : *view.devices) {
    if (!node::nic_role(view, dev).traffic)
      continue;
    for (const auto& port : dev.ports) {
      // What the adapter should run at (fabric's expected rate), else what the port reports:
      // a port that trained down is no excuse for a slow transfer.
      auto rate = port.expected_gbps ? port.expected_gbps : port.rate_gbps;
      if (node::is_active(port) && rate)
        acc = acc ? add(*acc, *rate) : *rate;
    }
  }
  return acc;
}

} // namespace

std::string gbs_text(double v) {
  char buf[48];  // "%.3g" past a million: 1e38 fits whole, never cut mid-number
  std::snprintf(buf, sizeof buf, std::abs(v) < 1e6 ? "%.1f GB/s" : "%.3g GB/s", v);
  return buf;
}

std::optional<double> transfer_gbps(const TransferOutcome& o) {
  return measured_gbs(o);
}

std::optional<int> kv_gpu_index(const probe::NodeFacts& facts, const NodeContext& ctx) {
  auto view = node::make_view(facts, ctx);
  if (!view.devices || !facts.topo)
    return std::nullopt;
  // (not named in UCX_NET_DEVICES / NCCL_IB_HCA, not PIX, GPU index): the smallest wins
  std::optional<std::tuple<bool, bool, int>> best;
  for (const auto& cell : node::gpu_nic_cells(*facts.topo)) {
    auto dev = std::find_if(view.devices->begin(), view.devices->end(),
                            [&](const probe::IbDevice& d) { return d.name == cell.nic; });
    auto index =
        text::to_int(std::string_view(cell.gpu).substr(std::min<std::size_t>(3, cell.gpu.size())));
    if (dev == view.devices->end() || !index || *index < 0 || *index > 4096 ||
        !node::close_to_gpu(cell.link.kind))
      continue;
    auto role = node::nic_role(view, *dev);
    if (!role.traffic)
      continue;
    std::tuple rank{!role.why.starts_with("named in"), cell.link.kind != probe::TopoLinkKind::pix,
                    static_cast<int>(*index)};
    if (!best || rank < *best)
      best = rank;
  }
  if (!best)
    return std::nullopt;
  return std::get<2>(*best);
}

std::optional<double> kv_line_rate_gbps(const probe::NodeFacts& facts, const NodeContext& ctx) {
  return over_kv_ports(facts, ctx, [](double a, double b) { return std::min(a, b); });
}

std::optional<double> kv_ports_sum_gbps(const probe::NodeFacts& facts, const NodeContext& ctx) {
  return over_kv_ports(facts, ctx, [](double a, double b) { return a + b; });
}

Finding judge_transfer(const TransferOutcome& o, const PairRates& rates) {
  if (o.tool == TestTool::none)
    return transfer_finding(Status::skipped, "no transfer tool common to both pods");
  if (o.tool == TestTool::nixl_python)
    return judge_nixl_python(o, rates);
  if (auto failed = judge_failure(o))
    return *failed;
  auto measured = measured_gbs(o);
  if (!measured) {
    if (o.tool == TestTool::nixl_test && o.listener.exit_code == 0 && o.initiator.exit_code == 0)
      return transfer_finding(
          Status::warn, "nixl_test " + o.prefill + " -> " + o.decode +
                            " passed with host memory only: GPUDirect and bandwidth not tested");
    return judge_incomplete(o);
  }
  auto f = judge_bandwidth(o, *measured, rates);
  if (o.host_memory) {
    f.detail += "; host memory only (this UCX has no CUDA): GPUDirect not tested";
    if (f.status == Status::ok)
      f.status = Status::warn;
  }
  return f;
}

} // namespace icheck::rules
