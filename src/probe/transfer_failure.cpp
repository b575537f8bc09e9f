#include <algorithm>
#include <array>

#include "util/text.hpp"
#include "probe/transfer_output.hpp"

namespace icheck::probe {
namespace {

struct Pattern {
  TransferFailureKind kind;
  std::vector<std::string_view> any;  // lower-case substrings; one is enough
};

// Most specific first: the cause before its consequences (an assertion aborts; a failed
// registration then segfaults; a segfault then disconnects the peer).
const std::vector<Pattern>& patterns() {
  using K = TransferFailureKind;
  static const std::vector<Pattern> p = {
      {K::etcd, {"start barrier", "error in barrier", "in etcd", "etcd error", "failed to connect to etcd"}},
      {K::unsupported_memory,
       {"unsupported memory type", "gpu memory is not supported", "couldn't allocate mr",
        "failed to create mr", "cuda support was not found"}},
      {K::connection_refused, {"connection refused", "couldn't connect to", "connect() failed"}},
      {K::assertion, {"assertion `", "assertion failed"}},
      {K::crash, {"segmentation fault", "caught signal", "core dumped", "aborted"}},
      {K::nixl_error, {"nixl_err_"}},
      {K::usage, {"usage: ", "parser function exited with error", "unknown command line flag"}},
      {K::ucx_error, {"ucx  error", "ucx error"}},
  };
  return p;
}

bool matches(const Pattern& p, std::string_view lower_line) {
  return std::any_of(p.any.begin(), p.any.end(),
                     [&](std::string_view s) { return text::contains(lower_line, s); });
}

}  // namespace

std::string_view to_string(TransferFailureKind k) {
  switch (k) {
    case TransferFailureKind::none: return "none";
    case TransferFailureKind::etcd: return "etcd";
    case TransferFailureKind::connection_refused: return "connection refused";
    case TransferFailureKind::unsupported_memory: return "unsupported memory type";
    case TransferFailureKind::assertion: return "assertion failed";
    case TransferFailureKind::crash: return "crashed";
    case TransferFailureKind::nixl_error: return "NIXL error";
    case TransferFailureKind::ucx_error: return "UCX error";
    case TransferFailureKind::usage: return "usage error";
  }
  return "unknown";
}

TransferFailure detect_transfer_failure(std::string_view output) {
  auto all = text::lines(output);
  std::vector<std::string> lower;
  lower.reserve(all.size());
  for (auto l : all) lower.push_back(text::lower(l));
  for (const auto& p : patterns()) {
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (matches(p, lower[i])) return {p.kind, std::string(text::trim(all[i]).substr(0, 240))};
    }
  }
  return {};
}

}  // namespace icheck::probe
