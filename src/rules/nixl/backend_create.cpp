#include "rules/nixl/backend_create.hpp"

#include "util/text.hpp"

namespace icheck::rules {
namespace {

using report::Finding;
using report::Layer;
using report::Status;

constexpr std::string_view kAsked = "nixl._api in a fresh python3, no memory registered";

Finding backend_finding(const std::string& backend, Status status, std::string detail,
                        std::string next = {}) {
  Finding f;
  f.name = backend + " backend";
  f.layer = Layer::nixl;
  f.status = status;
  f.detail = std::move(detail);
  f.next = std::move(next);
  return f;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v)
    out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "none" : out;
}

// NIXL's error, and its own log line when it printed one (the exception alone often says only
// NIXL_ERR_BACKEND).
std::string nixl_error(const probe::NixlAgentProbe& a, const std::string& error) {
  if (a.log_errors.empty())
    return error;
  auto log = std::string_view(a.log_errors.back());
  auto bracket = log.find("] ");
  return error + " (" +
         std::string(bracket == std::string_view::npos ? log
                                                       : text::trim(log.substr(bracket + 2))) +
         ")";
}

}  // namespace

std::optional<Finding> backend_created(const probe::NixlFacts& facts, const std::string& backend) {
  const auto& a = facts.agent;
  if (!a.section || !a.python || !a.skipped.empty() || (backend != "UCX" && backend != "LIBFABRIC"))
    return std::nullopt;
  const std::string next = "in the worker container: python3 -c \"import nixl._api as n; "
                           "n.nixl_agent('probe', n.nixl_agent_config(backends=[]))"
                           ".create_backend('" +
                           backend + "')\" (NIXL prints why)";
  if (!a.error.empty()) {
    const bool ours = a.error.starts_with("python3 asking");
    return backend_finding(
        backend, ours ? Status::warn : Status::fail,
        ours ? a.error + ": whether NIXL can create its " + backend + " backend is unknown"
             : "no NIXL agent starts (" + std::string(kAsked) + "): " + nixl_error(a, a.error),
        next);
  }
  if (!a.lists(backend))
    return backend_finding(backend, Status::fail,
                           "NIXL lists no " + backend + " plugin (" + std::string(kAsked) +
                               "; it lists " + joined(a.plugins) + ")",
                           next);
  auto it = a.backends.find(backend);
  if (it == a.backends.end())
    return std::nullopt;
  if (!it->second.empty())
    return backend_finding(backend, Status::fail,
                           "NIXL lists " + backend + " but cannot create the backend (" +
                               std::string(kAsked) + "): " + nixl_error(a, it->second),
                           next);
  return backend_finding(backend, Status::ok,
                         "NIXL creates its " + backend + " backend (" + std::string(kAsked) + ")");
}

}  // namespace icheck::rules
