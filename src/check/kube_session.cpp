#include "check/kube_session.hpp"

#include "exec/child.hpp"
#include "kube/kubectl_argv.hpp"
#include "kube/kubectl_stderr.hpp"
#include "util/duration.hpp"
#include "util/join.hpp"

namespace icheck::check {
namespace {

std::string selector_for(const TargetOptions& t, const std::vector<std::string>& deployments) {
  std::vector<std::string> parts;
  if (!t.selector.empty()) {
    parts.push_back(t.selector);
  }
  if (!t.deployment.empty()) {
    parts.push_back(kube::deployment_selector(t.deployment));
  }
  if (!deployments.empty()) {
    parts.push_back(kube::deployments_selector(deployments));
  }
  if (parts.empty()) {
    parts.push_back(kube::default_selector());
  }
  return join(parts, ",");
}

std::string describe(const TargetOptions& t, const std::vector<std::string>& deployments) {
  if (!t.pods.empty()) {
    return t.pods.size() == 1 ? "pod " + t.pods[0] : std::to_string(t.pods.size()) + " named pods";
  }
  if (!t.deployment.empty()) {
    return "deployment " + t.deployment;
  }
  if (!deployments.empty()) {
    return "deployment" + std::string(deployments.size() > 1 ? "s " : " ") + join(deployments);
  }
  if (!t.selector.empty()) {
    return "selector " + t.selector;
  }
  return "every Dynamo deployment";
}

// A 403 on the pod list: what the check needs, where the Role that grants it is, how to verify.
std::string rbac_hint(const std::string& err, const std::string& where) {
  if (err.find("is forbidden: ") == std::string::npos) {
    return "";
  }
  return "\ndynamo-icheck needs get and list on pods and create and get on pods/exec" +
         (where.empty() ? std::string(" in every namespace (-A)")
                        : " in namespace \"" + where + "\"") +
         ": deploy/rbac.yaml is that Role; check with: kubectl auth can-i list pods" +
         (where.empty() ? std::string(" -A") : " -n " + where);
}

// kubectl's own words for why `get pods` failed, without client-go's klog retries.
// A pod list of thousands of pods still fits.
constexpr std::size_t kPodListCap = std::size_t{256} << 20;

std::string kubectl_error(const exec::ChildResult& r, const std::string& program,
                          std::chrono::milliseconds timeout, const std::string& where) {
  if (r.not_found) {
    return "could not run \"" + program + "\": not found on PATH (install kubectl, or set "
           "DYNAMO_ICHECK_KUBECTL)";
  }
  if (r.interrupted) {
    return "interrupted before kubectl get pods finished";
  }
  if (!r.spawn_error.empty()) {
    return "could not start \"" + program + "\": " + r.spawn_error;
  }
  if (r.truncated) {
    return "kubectl get pods printed more than the " + std::to_string(kPodListCap >> 20) +
           " MiB its answer may take; it was stopped (narrow it with -l or --deployment)";
  }
  if (r.timed_out) {
    return "kubectl get pods did not answer within " + format_duration(timeout) +
           " (raise --timeout, or check the API server: kubectl cluster-info)";
  }
  const auto messages = kube::kubectl_messages(r.err);
  if (!messages.empty()) return join(messages, "\n") + rbac_hint(r.err, where);
  return r.signal != 0 ? "kubectl get pods was ended by signal " + std::to_string(r.signal)
                       : "kubectl get pods failed with exit code " + std::to_string(r.exit_code);
}

}  // namespace

Expected<KubeSession> open_session(const kube::KubeFlags& flags,
                                   std::chrono::milliseconds timeout) {
  const auto env = kube::real_environment();
  auto resolved = kube::resolve_kube(flags, env);
  if (!resolved) {
    return resolved.error();
  }
  KubeSession s;
  s.resolved = std::move(*resolved);
  s.program = kube::kubectl_program(env);
  s.base = kube::kubectl_base_argv(s.program, flags, s.resolved);
  s.timeout = timeout;
  return s;
}

Expected<PodSelection> find_pods(const KubeSession& session, const TargetOptions& targets,
                                 const std::vector<std::string>& deployments) {
  const auto& ns = session.resolved.namespace_;
  exec::ChildSpec spec;
  spec.argv = targets.pods.empty()
                  ? kube::get_pods_argv(session.base, ns, session.resolved.all_namespaces,
                                        selector_for(targets, deployments))
                  : kube::get_named_pods_argv(session.base, ns, targets.pods);
  spec.deadline = session.timeout;
  spec.output_cap = kPodListCap;
  const auto r = exec::run_child(spec);
  const bool named = !targets.pods.empty();
  if (!r.ok() && !(named && r.exit_code == 1 && !r.out.empty())) {
    const std::string where = session.resolved.all_namespaces ? "" : ns;
    return Error{kubectl_error(r, session.program, session.timeout, where)};
  }
  kube::ContainerChoice choice;
  if (targets.container) {
    choice = {*targets.container, true};
  }
  auto pods = kube::parse_pods_json(r.out, choice);
  if (!pods) {
    return Error{"could not read kubectl's pod list: " + pods.error().message};
  }
  PodSelection selection{std::move(*pods), {}, describe(targets, deployments)};
  if (named) {
    selection.warnings = kube::kubectl_messages(r.err);
  }
  return selection;
}

}  // namespace icheck::check
