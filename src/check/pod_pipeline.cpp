#include "check/pod_pipeline.hpp"

#include "check/pod_targets.hpp"
#include "check/recipe_targets.hpp"
#include "probe/nixl_script.hpp"
#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"

namespace icheck::check {

std::string probe_script(bool with_nixl) {
  if (!with_nixl) {
    return std::string(probe::node_probe_script());
  }
  return probe::insert_before_done(probe::node_probe_script(), probe::nixl_probe_script());
}

Expected<PodRun> run_pods(const Options& options, const std::vector<std::string>& deployments,
                          const std::string& script, report::Layer first_layer) {
  auto session = open_session(options.kube, options.run.timeout);
  if (!session) {
    return session.error();
  }
  auto selection = find_pods(*session, options.targets, deployments);
  if (!selection) {
    return selection.error();
  }
  PodRun run{std::move(*session), selection->described,
             kube::select_targets(selection->pods, options.targets.all_components), {}, false};
  run.disagg = is_disagg(run.pods);
  for (auto& probe : probe_pods(run.session, run.pods, script, options.run)) {
    ProbedPod p{std::move(probe), {}, false, {}, {}, {}};
    p.parsed = start_target(p.probe, first_layer, options.run, p.target);
    if (p.parsed) {
      const auto sections = probe::split_sections(p.probe.result->out);  // once for both
      p.node = probe::parse_node_probe(sections);
      p.nixl = probe::parse_nixl_probe(sections);
      p.backends = rules::kv_backends(p.nixl.backend_env, p.probe.pod.command_line,
                                      rules::engine_transceiver(p.nixl));
    }
    run.probed.push_back(std::move(p));
  }
  for (const auto& w : selection->warnings) {
    run.described += "; " + w;
  }
  return run;
}

Expected<report::Report> pods_report(const Options& options, bool with_nixl, report::Layer first_layer,
                                     JudgePods judge) {
  auto deployments = recipe_deployments(options.targets.recipe);
  if (!deployments) {
    return deployments.error();
  }
  auto run = run_pods(options, *deployments, probe_script(with_nixl), first_layer);
  if (!run) {
    return run.error();
  }
  report::Report r;
  r.mode = options.mode;
  start_report(*run, r);
  judge(*run, options, r);
  for (auto& p : run->probed) {
    r.targets.push_back(std::move(p.target));
  }
  return r;
}

void start_report(const PodRun& run, report::Report& report) {
  const auto& resolved = run.session.resolved;
  report.context = resolved.context;
  report.namespace_ = resolved.all_namespaces ? "(all namespaces)" : resolved.namespace_;
  report.header.push_back(run.described);
  report.header.push_back("worker " + pods_phrase(run.pods));
  if (run.pods.empty()) {
    report.errors.push_back("no Dynamo worker pods found for " + run.described + " in " +
                            (resolved.all_namespaces ? std::string("any namespace")
                                                     : "namespace " + resolved.namespace_) +
                            " (frontend, planner and epp pods are left out unless "
                            "--all-components)");
  }
}

}  // namespace icheck::check
