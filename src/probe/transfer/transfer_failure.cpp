#include "probe/transfer/transfer_output.hpp"
#include "util/text.hpp"

#include <algorithm>

namespace icheck::probe {
namespace {

struct Pattern {
  TransferFailureKind kind;
  std::vector<std::string_view> any;  // lower-case substrings; one is enough
  std::vector<std::string_view> also; // and each of these (empty: none needed)
};

// Most specific first: the cause before its consequences (an assertion aborts; a failed
// registration then segfaults; a segfault then disconnects the peer; an unreachable peer makes
// UCX and then NIXL report errors of their own).
const std::vector<Pattern>& patterns() {
  using K = TransferFailureKind;
  static const std::vector<Pattern> p = {
      {K::etcd,
       {"start barrier", "error in barrier", "in etcd", "etcd error", "failed to connect to etcd"},
       {}},
      {K::no_peer, {"asio connection timeout"}, {}},
      {K::stalled, {"asio receive timeout", "icheck-nixl: stalled"}, {}},
      {K::backend_missing,
       {"createbackend: unsupported backend", "getpluginparams: backend",
        "icheck-nixl: error: no backend"},
       {}},
      {K::unreachable, {"destination is unreachable"}, {}},
      // ibv_* errors, not UCX's warnings about them (ibv_query_port_speed WARNs are harmless)
      {K::verbs, {"ucx  error", "error:", "couldn't"}, {"ibv_"}},
      {K::verbs, {"couldn't allocate mr", "failed to create mr"}, {}},
      {K::unsupported_memory,
       {"unsupported memory type", "gpu memory is not supported", "cuda support was not found"},
       {}},
      {K::connection_refused,
       {"connection refused", "couldn't connect to", "connect() failed"},
       {}},
      {K::assertion, {"assertion `", "assertion failed"}, {}},
      {K::crash, {"segmentation fault", "caught signal", "core dumped", "aborted"}, {}},
      {K::nixl_error, {"nixl_err_"}, {}},
      {K::usage, {"usage: ", "parser function exited with error", "unknown command line flag"}, {}},
      {K::ucx_error, {"ucx  error", "ucx error"}, {}},
  };
  return p;
}

bool has_any(std::string_view lower_line, const std::vector<std::string_view>& parts) {
  return std::any_of(parts.begin(), parts.end(),
                     [&](std::string_view s) { return text::contains(lower_line, s); });
}

bool matches(const Pattern& p, std::string_view lower_line) {
  return has_any(lower_line, p.any) &&
         std::all_of(p.also.begin(), p.also.end(),
                     [&](std::string_view s) { return text::contains(lower_line, s); });
}

} // namespace

std::string_view to_string(TransferFailureKind k) {
  switch (k) {
  case TransferFailureKind::none:
    return "none";
  case TransferFailureKind::etcd:
    return "etcd";
  case TransferFailureKind::no_peer:
    return "peer not reached";
  case TransferFailureKind::stalled:
    return "peer stopped answering";
  case TransferFailureKind::connection_refused:
    return "connection refused";
  case TransferFailureKind::backend_missing:
    return "NIXL backend missing";
  case TransferFailureKind::unreachable:
    return "destination unreachable";
  case TransferFailureKind::verbs:
    return "verbs call failed";
  case TransferFailureKind::unsupported_memory:
    return "unsupported memory type";
  case TransferFailureKind::assertion:
    return "assertion failed";
  case TransferFailureKind::crash:
    return "crashed";
  case TransferFailureKind::nixl_error:
    return "NIXL error";
  case TransferFailureKind::ucx_error:
    return "UCX error";
  case TransferFailureKind::usage:
    return "usage error";
  }
  return "unknown";
}

TransferFailure detect_transfer_failure(std::string_view output) {
  auto all = text::lines(output);
  std::vector<std::string> lower;
  lower.reserve(all.size());
  for (auto l : all)
    lower.push_back(text::lower(l));
  for (const auto& p : patterns()) {
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (matches(p, lower[i]))
        return {p.kind, std::string(text::trim(all[i]).substr(0, 240))};
    }
  }
  return {};
}

bool shows_connected(std::string_view output) {
  static const std::vector<std::string_view> markers = {
      "accepted connection from",           "bandwidth (mb/s)", "latency (usec)",
      "all processes are ready to proceed", "block size (b)",   "icheck-nixl: connected"};
  const auto all = text::lines(output);
  return std::any_of(all.begin(), all.end(),
                     [](auto line) { return has_any(text::lower(line), markers); });
}

std::string last_lines(std::string_view output, std::size_t n) {
  std::vector<std::string_view> kept;
  for (auto line : text::lines(output)) {
    if (auto t = text::trim(line); !t.empty())
      kept.push_back(t);
  }
  std::string out;
  for (auto i = kept.size() > n ? kept.size() - n : 0; i < kept.size(); ++i) {
    out += (out.empty() ? "" : " | ") + std::string(kept[i].substr(0, 200));
  }
  return out;
}

} // namespace icheck::probe
