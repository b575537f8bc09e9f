#include "rules/nixl/kv_metrics.hpp"

#include "outside/mask.hpp"
#include "outside/text.hpp"
#include "rules/transfer/transfer_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace icheck::rules {
namespace {

using report::Finding;
using report::Status;
using Labels = std::map<std::string, std::string>;

constexpr double kLineRateShare = 0.5;  // as the transfer test judges its figure
constexpr double kTcpClassGBs = 3.0;

// One counter or gauge over the interval, from the first endpoint that exposed it in both reads.
struct Delta {
  double from = 0, to = 0;
  double seconds = 0;
  const probe::EndpointReads* at = nullptr;
  double grew() const { return to - from; }
};

std::string number(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, std::abs(v) < 1e15 && v == std::floor(v) ? "%.0f" : "%.4g", v);
  return buf;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

std::string where(const probe::EndpointReads& e) {
  return "127.0.0.1:" + std::to_string(e.endpoint.port) + e.endpoint.path + ", " + e.endpoint.why;
}

double interval_of(const probe::EndpointReads& e, std::chrono::milliseconds asked) {
  const double planned = static_cast<double>(asked.count()) / 1000.0;
  if (!e.first.time || !e.second.time || *e.second.time <= *e.first.time)
    return planned;
  const double measured = *e.second.time - *e.first.time;
  // A clock of whole seconds (busybox date) says 4 for a gap of 3.1: the gap was at least the
  // interval asked and more than one second under what it says.
  if (std::floor(*e.first.time) == *e.first.time && std::floor(*e.second.time) == *e.second.time)
    return std::max(planned, measured - 1.0);
  return measured;
}

std::optional<Delta> delta(const KvMetricsInput& in, const std::string& name,
                           const Labels& match = {}) {
  for (const auto& e : in.reads->endpoints) {
    if (!e.first.ok || !e.second.ok)
      continue;
    const auto a = probe::metric_sum(e.first.page, name, match);
    const auto b = probe::metric_sum(e.second.page, name, match);
    // A counter below zero is no count at all (issue 40: -100 -> -50 read as failures growing):
    // not judged here, said by implausible().
    if (a && b && std::isfinite(*a) && std::isfinite(*b) && *a >= 0 && *b >= 0)
      return Delta{*a, *b, interval_of(e, in.interval), &e};
  }
  return std::nullopt;
}

// "vllm:nixl_num_failed_transfers_total 3 -> 7 in 3.0 s"
std::string evidence(const std::string& name, const Delta& d) {
  return name + " " + number(d.from) + " -> " + number(d.to) + " in " + seconds_text(d.seconds);
}

Finding finding(const std::string& name, Status status, std::string detail, bool required) {
  Finding f;
  f.name = name;
  f.layer = report::Layer::nixl;
  f.status = status;
  f.detail = std::move(detail);
  f.required = required;
  return f;
}

// Counters that only grow when a KV transfer failed.
constexpr const char* kFailureCounters[] = {
    "vllm:nixl_num_failed_transfers_total", "vllm:nixl_num_failed_notifications_total",
    "sglang:num_transfer_failed_reqs_total", "sglang:num_bootstrap_failed_reqs_total",
    "agent_errors_total"};

std::optional<Finding> failures(const KvMetricsInput& in, boost::json::object& seen) {
  std::vector<std::string> grew;
  const probe::EndpointReads* at = nullptr;
  for (const char* name : kFailureCounters) {
    const auto d = delta(in, name);
    if (!d)
      continue;
    seen[name] = {{"from", d->from}, {"to", d->to}};
    if (d->grew() > 0) {  // a counter that went down restarted with its process: not judged
      grew.push_back(evidence(name, *d));
      at = at ? at : d->at;
    }
  }
  if (grew.empty())
    return std::nullopt;
  std::string detail = "KV transfers failing now: ";
  for (std::size_t i = 0; i < grew.size(); ++i)
    detail += (i ? "; " : "") + grew[i];
  auto f = finding("kv-failures", Status::fail, detail + " (" + where(*at) + ")", true);
  f.next = "kubectl logs <pod> -n <namespace> --tail=500  # the engine's NIXL/UCX errors";
  return f;
}

// Bytes and transfer time moved over the interval, by the first family that shows them.
struct Moved {
  std::optional<Delta> bytes;  // bytes moved
  std::optional<double> gbs;   // bytes over transfer time (GB/s)
  std::string what;            // the evidence, named
  bool known = false;          // some KV family is exposed
};

Moved vllm_moved(const KvMetricsInput& in) {
  Moved m;
  const auto bytes = delta(in, "vllm:nixl_bytes_transferred_sum");
  const auto time = delta(in, "vllm:nixl_xfer_time_seconds_sum");
  const auto count = delta(in, "vllm:nixl_bytes_transferred_count");
  m.known = bytes.has_value();
  if (!bytes || bytes->grew() <= 0)
    return m;
  m.bytes = bytes;
  m.what = evidence("vllm:nixl_bytes_transferred_sum", *bytes);
  if (count)
    m.what += " (" + number(count->grew()) + " transfers)";
  if (time && time->grew() > 0) {
    m.gbs = bytes->grew() / time->grew() / 1e9;
    m.what += ", " + evidence("vllm:nixl_xfer_time_seconds_sum", *time);
  }
  return m;
}

Moved nixl_telemetry_moved(const KvMetricsInput& in) {
  Moved m;
  const auto tx = delta(in, "agent_tx_bytes_total");
  const auto rx = delta(in, "agent_rx_bytes_total");
  const auto time = delta(in, "agent_xfer_time_us_sum");
  m.known = tx || rx;
  const auto* moved = tx && tx->grew() > 0 ? &*tx : rx && rx->grew() > 0 ? &*rx : nullptr;
  if (moved == nullptr)
    return m;
  m.bytes = *moved;
  m.what = evidence(moved == &*tx ? "agent_tx_bytes_total" : "agent_rx_bytes_total", *moved);
  if (time && time->grew() > 0 && moved == &*tx) {
    m.gbs = moved->grew() / (time->grew() / 1e6) / 1e9;
    m.what += ", " + evidence("agent_xfer_time_us_sum", *time);
  }
  return m;
}

// SGLang records each transfer's size, latency and speed: gauges (the last transfer) in older
// releases, histograms (_sum/_count) in newer ones.
Moved sglang_moved(const KvMetricsInput& in) {
  Moved m;
  const auto count = delta(in, "sglang:kv_transfer_total_mb_count");
  const auto mb_sum = delta(in, "sglang:kv_transfer_total_mb_sum");
  const auto mb = delta(in, "sglang:kv_transfer_total_mb");
  const auto speed_sum = delta(in, "sglang:kv_transfer_speed_gb_s_sum");
  const auto speed_count = delta(in, "sglang:kv_transfer_speed_gb_s_count");
  const auto speed = delta(in, "sglang:kv_transfer_speed_gb_s");
  m.known = count || mb || speed || speed_count;
  if (count && count->grew() > 0 && mb_sum) {
    m.bytes = Delta{mb_sum->from * 1e6, mb_sum->to * 1e6, mb_sum->seconds, mb_sum->at};
    m.what = evidence("sglang:kv_transfer_total_mb_sum", *mb_sum) + " (" + number(count->grew()) +
             " transfers)";
    if (speed_sum && speed_count && speed_count->grew() > 0) {
      m.gbs = speed_sum->grew() / speed_count->grew();
      m.what += ", mean of sglang:kv_transfer_speed_gb_s over them";
    }
  } else if (mb && mb->to != mb->from && mb->to > 0) {
    m.bytes = Delta{0, mb->to * 1e6, mb->seconds, mb->at};  // the last transfer's size
    m.what = evidence("sglang:kv_transfer_total_mb", *mb) + " (the last transfer's MB)";
    if (speed && speed->to > 0) {
      m.gbs = speed->to;
      m.what += ", sglang:kv_transfer_speed_gb_s " + number(speed->to);
    }
  }
  return m;
}

Finding traffic(const KvMetricsInput& in, const Moved& m) {
  const std::string head = "KV moved by live traffic: " + m.what + " (" + where(*m.bytes->at) + ")";
  const std::string test = "kubectl dynamo-icheck nixl --transfer --pod <pod> -n <namespace>";
  if (!m.gbs) {
    auto f = finding("kv-traffic", Status::warn,
                     head + "; no transfer time exposed, so its rate is not judged", false);
    f.next = test;
    return f;
  }
  const std::string rate = "; " + gbs_text(*m.gbs) + " per transfer";
  if (!in.line_rate_gbps) {
    auto f = finding("kv-traffic", Status::warn,
                     head + rate + "; the KV ports' line rate is unknown, so not judged", false);
    f.next = test;
    return f;
  }
  const double line = *in.line_rate_gbps / 8.0;
  if (*m.gbs > line) {
    // Faster than the ports can carry: a figure to distrust (a wrong counter, a unit, a reset),
    // never evidence that KV moves at line rate, and no failure either (issue 40).
    auto f = finding("kv-traffic", Status::warn,
                     head + rate + ": more than the " + gbs_text(line) +
                         " line rate of the KV ports, a reading to distrust, not counted as "
                         "observed traffic",
                     false);
    f.next = test;
    return f;
  }
  char share[96];
  std::snprintf(share, sizeof share, " (%.0f %% of %s line rate)", 100.0 * *m.gbs / line,
                gbs_text(line).c_str());
  if (*m.gbs >= kLineRateShare * line) {
    auto f = finding("kv-traffic", Status::ok, head + rate + share + ": observed traffic", false);
    f.is_observed_traffic = true;
    return f;
  }
  auto f = finding("kv-traffic", Status::warn,
                   head + rate + share +
                       (*m.gbs < kTcpClassGBs ? ": TCP class (or small, latency-bound transfers)"
                                              : ": below half of line rate"),
                   false);
  f.next = test;
  return f;
}

// A decode worker that served requests in the interval, and whether KV reached it.
std::optional<Finding> decode_without_kv(const KvMetricsInput& in, const Moved& moved) {
  if (in.role != dynamo::Role::decode || moved.bytes)
    return std::nullopt;
  auto served = delta(in, "vllm:request_success_total");
  std::string served_name = "vllm:request_success_total";
  std::optional<Delta> received =
      delta(in, "vllm:prompt_tokens_by_source_total", {{"source", "external_kv_transfer"}});
  std::string received_name = "vllm:prompt_tokens_by_source_total{source=\"external_kv_transfer\"}";
  if (!served) {
    served = delta(in, "sglang:num_requests_total");
    served_name = "sglang:num_requests_total";
    received.reset();
    received_name.clear();
  }
  if (!served || served->grew() <= 0)
    return std::nullopt;
  if (received && received->grew() > 0)
    return std::nullopt;  // KV arrived through a family without bytes (another connector)
  if (!moved.known && !received)
    return std::nullopt;  // no KV family exposed: unknown, said by kv-metrics
  std::string none = received ? evidence(received_name, *received) : std::string();
  if (moved.known)
    none += std::string(none.empty() ? "" : ", ") + "no KV-transfer bytes counted";
  auto f = finding("kv-received", Status::warn,
                   "decode served requests but received no KV: " + evidence(served_name, *served) +
                       "; " + none + " (" + where(*served->at) + ")",
                   true);
  f.next = "kubectl logs <pod> -n <namespace> --tail=500  # why prefill's KV never arrives "
           "(the decode worker recomputes the prompt)";
  return f;
}

// Counters the worker exposes below zero: what they say cannot be, so they are not judged.
std::optional<Finding> implausible(const KvMetricsInput& in) {
  static constexpr const char* kMovedCounters[] = {
      "vllm:nixl_bytes_transferred_sum", "vllm:nixl_xfer_time_seconds_sum", "agent_tx_bytes_total",
      "agent_rx_bytes_total", "sglang:kv_transfer_total_mb_sum"};
  std::vector<const char*> counters(std::begin(kFailureCounters), std::end(kFailureCounters));
  counters.insert(counters.end(), std::begin(kMovedCounters), std::end(kMovedCounters));
  std::string bad;
  for (const char* name : counters)
    for (const auto& e : in.reads->endpoints) {
      if (!e.first.ok || !e.second.ok)
        continue;
      const auto a = probe::metric_sum(e.first.page, name, {});
      const auto b = probe::metric_sum(e.second.page, name, {});
      if (a && b && (*a < 0 || *b < 0)) {
        bad +=
            (bad.empty() ? "" : "; ") + std::string(name) + " " + number(*a) + " -> " + number(*b);
        break;
      }
    }
  if (bad.empty())
    return std::nullopt;
  return finding("kv-metrics", Status::warn,
                 "counters below zero, which no counter can be: " + bad +
                     ": a reading to distrust, not judged",
                 false);
}

std::string unread_why(const KvMetricsInput& in) {
  std::string why;
  for (const auto& e : in.reads->endpoints) {
    const auto& bad = !e.first.ok ? e.first : e.second;
    if (e.first.ok && e.second.ok)
      continue;
    why += (why.empty() ? "" : "; ") + std::string("127.0.0.1:") + std::to_string(e.endpoint.port) +
           e.endpoint.path + ": " + outside::at_most(outside::mask_secrets(bad.error), 300);
  }
  return why;
}

Finding skipped(const std::string& detail) {
  return finding("kv-metrics", Status::skipped, detail, false);
}

boost::json::object endpoint_facts(const KvMetricsInput& in) {
  boost::json::object facts;
  boost::json::array eps;
  for (std::size_t i = 0; i < in.endpoints.size(); ++i) {
    const auto& e = in.endpoints[i];
    boost::json::object o{
        {"source", e.source}, {"port", e.port}, {"path", e.path}, {"from", e.why}};
    if (in.reads && i < in.reads->endpoints.size()) {
      const auto& r = in.reads->endpoints[i];
      o["read"] = r.first.ok && r.second.ok;
      if (!(r.first.ok && r.second.ok))
        o["error"] =
            outside::at_most(outside::mask_secrets((!r.first.ok ? r.first : r.second).error), 300);
    }
    eps.push_back(std::move(o));
  }
  facts["endpoints"] = std::move(eps);
  facts["intervalSeconds"] = static_cast<double>(in.interval.count()) / 1000.0;
  return facts;
}

}  // namespace

KvMetricsJudgement judge_kv_metrics(const KvMetricsInput& in) {
  KvMetricsJudgement out;
  out.facts = endpoint_facts(in);
  if (in.endpoints.empty()) {
    out.facts["read"] = false;
    out.facts["why"] = "no metrics endpoint in the pod spec (DYN_SYSTEM_PORT, NIXL telemetry, an "
                       "engine's own --port)";
    return out;  // nothing to read: said in the facts, no finding (most test pods)
  }
  if (!in.reads || (in.reads->reader.empty() && in.reads->complete)) {
    const std::string why = !in.reads ? in.not_run : "neither python3 nor curl in the image";
    out.facts["read"] = false;
    out.facts["why"] = why;
    out.findings.push_back(skipped("KV-transfer metrics not read: " + why));
    return out;
  }
  out.facts["reader"] = in.reads->reader;
  const bool any = std::any_of(in.reads->endpoints.begin(), in.reads->endpoints.end(),
                               [](const auto& e) { return e.first.ok && e.second.ok; });
  out.facts["read"] = any;
  if (!any) {
    const auto why = in.reads->reader.empty() ? in.not_run : unread_why(in);
    out.findings.push_back(skipped("KV-transfer metrics not read: " + why));
    return out;
  }
  boost::json::object seen;
  if (auto f = implausible(in))
    out.findings.push_back(std::move(*f));
  if (auto f = failures(in, seen))
    out.findings.push_back(std::move(*f));
  Moved moved = vllm_moved(in);
  for (auto* next : {&nixl_telemetry_moved, &sglang_moved}) {
    if (moved.bytes)
      break;
    auto other = next(in);
    other.known = other.known || moved.known;
    moved = std::move(other);
  }
  if (moved.bytes) {
    seen["bytesMoved"] = moved.bytes->grew();
    if (moved.gbs)
      seen["gbPerSecond"] = *moved.gbs;
    out.findings.push_back(traffic(in, moved));
  }
  if (auto f = decode_without_kv(in, moved))
    out.findings.push_back(std::move(*f));
  if (!moved.bytes && out.findings.empty()) {
    const double s = static_cast<double>(in.interval.count()) / 1000.0;
    out.findings.push_back(skipped(
        moved.known || !seen.empty()
            ? "no KV moved in the " + seconds_text(s) + " between the two reads: nothing observed"
            : "no KV-transfer metric exposed at " + where(in.reads->endpoints.front()) +
                  " (vLLM's NIXL connector, SGLang's disaggregation or NIXL telemetry)"));
  }
  out.facts["counters"] = std::move(seen);
  return out;
}

}  // namespace icheck::rules
