#include "recipe/shape.hpp"
#include "rules/env/env_detail.hpp"
#include "util/join.hpp"

using icheck::report::Status;

namespace icheck::rules::detail {
namespace {

constexpr const char* kNoEvidence =
    "no sub-component type, engine role flag, role variable or prefill/decode in the name "
    "tells prefill, decode or worker";

// "Decode (component type 'main')": a service as the deployment-wide finding names it.
std::string seen(const recipe::Service& s) {
  const auto& what = s.role_reading.not_understood;
  return s.name + (what.empty() ? " (no component type)" : " (" + what + ")");
}

}  // namespace

// A value outside Dynamo's vocabulary decides nothing (DESIGN.md): the service says what it
// did not understand and what decided its role instead, or that nothing did.
std::optional<report::Finding> judge_role(const recipe::Service& s) {
  const auto& reading = s.role_reading;
  if (s.role == dynamo::Role::unknown) {
    const std::string what = reading.not_understood.empty()
                                 ? "no component type"
                                 : reading.not_understood + " is not in Dynamo's vocabulary";
    return env_finding(s, "role", Status::warn,
                       "role unknown: " + what + ", and " + kNoEvidence +
                           ": its transport is not judged");
  }
  if (reading.not_understood.empty())
    return std::nullopt;
  return env_finding(s, "role", Status::warn,
                     reading.not_understood + " is not in Dynamo's vocabulary: read as " +
                         std::string(dynamo::role_name(s.role)) + " from " + reading.by +
                         "; the operator may not deploy it as one");
}

// Not disaggregated: aggregated when every role is known, else nobody can tell.
report::Finding judge_split(const recipe::Deployment& dgd) {
  std::vector<std::string> unknown;
  for (const auto& s : dgd.services)
    if (s.role == dynamo::Role::unknown)
      unknown.push_back(seen(s));
  if (unknown.empty()) {
    auto f = env_finding(dgd.name, "transport", Status::ok,
                         "aggregated (no prefill/decode split): KV never moves between "
                         "workers, the transport is not exercised");
    f.required = false;
    return f;
  }
  return env_finding(dgd.name, "transport", Status::warn,
                     "worker roles unknown: " + join(unknown) +
                         "; cannot tell an aggregated deployment from a disaggregated one, "
                         "the KV transport is not judged");
}

}  // namespace icheck::rules::detail
