#include "rules/transfer_rules.hpp"

#include <cstdio>

#include "probe/transfer_output.hpp"
#include "rules/node_view.hpp"
#include "util/percent.hpp"

namespace icheck::rules {
namespace {

using report::Finding;
using report::Status;

constexpr double kTcpClassGBs = 3.0;     // TCP fallback measures 1-2 GB/s (Dynamo guide)
constexpr double kLineRateShare = 0.5;
constexpr double kAboveOnePort = 1.05;   // beyond rounding and the kernel's rate labels

Finding transfer_finding(Status s, std::string detail, std::string next = {}) {
  Finding f;
  f.name = "transfer";
  f.layer = report::Layer::nixl;
  f.status = s;
  f.detail = std::move(detail);
  f.next = std::move(next);
  return f;
}

std::string gbs(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB/s", v);
  return buf;
}

std::string first_line(std::string_view s) {
  auto nl = s.find('\n');
  auto line = std::string(s.substr(0, nl));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line.substr(0, 200);
}

std::string both(const SideOutput& s) { return s.out + "\n" + s.err; }

std::optional<double> measured_gbs(const TransferOutcome& o) {
  for (const auto* side : {&o.initiator, &o.listener}) {
    auto text = both(*side);
    if (o.tool == TestTool::ucx_perftest) {
      if (auto v = probe::parse_ucx_perftest(text).gb_per_s()) return v;
    } else if (auto v = probe::parse_nixlbench(text).gb_per_s()) {
      return v;
    }
  }
  return std::nullopt;
}

// Why the test did not give a result, in one line; "" when both sides finished cleanly.
std::string why_incomplete(const TransferOutcome& o) {
  for (const auto* side : {&o.listener, &o.initiator}) {
    const char* who = side == &o.listener ? "decode side" : "prefill side";
    if (!side->ran)
      return std::string(who) + " did not start: " +
             (side->start_error.empty() ? "not run" : side->start_error);
    if (auto f = probe::detect_transfer_failure(both(*side)); f.kind != probe::TransferFailureKind::none)
      return std::string(who) + ": " + std::string(probe::to_string(f.kind)) + ": " + f.line;
    if (side->timed_out || side->exit_code == 124)
      return std::string(who) + " did not finish within " + std::to_string(o.timeout_s) + " s";
    // Busybox's `timeout` (and a kill from outside) leaves the command's own death by signal.
    if (side->exit_code == 128 + 15 || side->exit_code == 128 + 9)
      return std::string(who) + " did not finish within " + std::to_string(o.timeout_s) +
             " s (ended by SIG" + (side->exit_code == 128 + 9 ? "KILL" : "TERM") + ", exit " +
             std::to_string(side->exit_code) + ")";
    if (side->exit_code != 0) {
      auto line = first_line(side->err.empty() ? side->out : side->err);
      return std::string(who) + " exited " + std::to_string(side->exit_code) +
             (line.empty() ? "" : ": " + line);
    }
  }
  return {};
}

Finding judge_bandwidth(const TransferOutcome& o, double measured, std::optional<double> rate) {
  std::string what = std::string(to_string(o.tool)) + " " + o.prefill + " <-> " + o.decode + ": " + gbs(measured);
  if (measured < kTcpClassGBs)
    return transfer_finding(Status::fail, "KV transfer falls back to TCP: " + what,
                            "check the rdma-access, gpudirect and ucx layers of both pods");
  if (!o.cross_node)
    return transfer_finding(Status::warn, what + " on one node: RDMA was not exercised",
                            "kubectl dynamo-icheck nixl --transfer --pair PREFILL,DECODE with pods on different nodes");
  if (!rate)
    return transfer_finding(Status::warn, what + "; line rate unknown, so not judged against it");
  double line_gbs = *rate / 8.0;
  what += " (" + percent_text(measured, line_gbs) + " % of " +
          gbs(line_gbs) + " line rate";
  // One port cannot carry more than its line rate: UCX striped the transfer over several
  // rails (UCX_MAX_RNDV_RAILS), or it went over (multi-node) NVLink rather than the NIC.
  if (measured > kAboveOnePort * line_gbs) what += " of one port: several rails or NVLink carried it";
  what += ")";
  if (measured >= kLineRateShare * line_gbs) {
    auto f = transfer_finding(Status::ok, what);
    f.is_transfer = true;
    return f;
  }
  return transfer_finding(Status::warn, what + ": below half of line rate",
                          "check UCX_NET_DEVICES names the GPU-affine NICs and that GPUDirect is active");
}

}  // namespace

std::optional<double> kv_line_rate_gbps(const probe::NodeFacts& facts, const NodeContext& ctx) {
  auto view = node::make_view(facts, ctx);
  if (!view.devices) return std::nullopt;
  std::optional<double> slowest;
  for (const auto& dev : *view.devices) {
    if (!node::nic_role(view, dev).traffic) continue;
    for (const auto& port : dev.ports)
      if (node::is_active(port) && port.rate_gbps && (!slowest || *port.rate_gbps < *slowest))
        slowest = port.rate_gbps;
  }
  return slowest;
}

Finding judge_transfer(const TransferOutcome& o, std::optional<double> line_rate_gbps) {
  if (o.tool == TestTool::none)
    return transfer_finding(Status::skipped, "no transfer tool common to both pods");
  auto measured = measured_gbs(o);
  if (auto why = why_incomplete(o); !why.empty() && !measured)
    return transfer_finding(Status::skipped, "transfer test did not complete: " + why);
  if (!measured) {
    if (o.tool == TestTool::nixl_test)
      return transfer_finding(Status::ok, "nixl_test " + o.prefill + " <-> " + o.decode +
                                              " passed (host memory only: GPUDirect and bandwidth not tested)");
    return transfer_finding(Status::skipped, "transfer test printed no bandwidth");
  }
  return judge_bandwidth(o, *measured, line_rate_gbps);
}

}  // namespace icheck::rules
