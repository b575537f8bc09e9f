#include "check/pod_pipeline.hpp"

#include "check/known_trouble_pods.hpp"
#include "check/next_commands.hpp"
#include "check/nothing_matched.hpp"
#include "check/pod_targets.hpp"
#include "check/recipe_targets.hpp"
#include "outside/argv.hpp"
#include "probe/metrics/metrics_script.hpp"
#include "probe/nixl/nixl_script.hpp"
#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"
#include "probe/script_compact.hpp"
#include "rules/pair/pair_link.hpp"
#include "rules/pair/same_node.hpp"
#include "rules/transfer/transfer_rules.hpp"

#include <future>

namespace icheck::check {

std::string probe_script(bool with_nixl) {
  // Every mode reads the KV stack's versions and the whole environment (known trouble): the
  // node script holds them. Sent without its comments (the request line is capped).
  const auto script = std::string(probe::node_probe_script());
  if (!with_nixl) {
    return probe::compact_script(script);
  }
  return probe::compact_script(probe::insert_before_done(script, probe::nixl_probe_script()));
}

namespace {

// A multinode worker's worker pods run ray or sshd in their main container (dynamo-nixl.md §3.4):
// the engine's command line, and so its KV backend flags, is the leader's, while the engine's
// ranks on the worker pod's GPUs move KV with the same backends. A worker pod that names no
// backend itself and whose leader was not probed has an unknown choice, never the default.
void use_leader_backends(PodRun& run, bool pods_named) {
  for (std::size_t i = 0; i < run.probed.size(); ++i) {
    const auto& pod = run.pods[i];
    auto& to = run.probed[i];
    if (pod.multinode != dynamo::MultinodePart::worker || !to.parsed)
      continue;
    const auto* leader = kube::multinode_leader(run.pods, pod);
    const auto* from = leader == nullptr
                           ? nullptr
                           : &run.probed[static_cast<std::size_t>(leader - run.pods.data())];
    if (from != nullptr && from->parsed) {
      to.backends = from->backends;
      if (!to.backends.is_default())
        to.backends.source += " (on the leader, " + leader->name + ")";
      continue;
    }
    if (!to.backends.is_default() || !to.backends.library_source.empty())
      continue;  // the worker pod's own command line names them (SGLang runs the engine on each)
    to.backends.unknown =
        from != nullptr ? "its leader pod " + leader->name + " could not be probed"
        : pod.multinode_group.empty()
            ? "its leader pod could not be told from the labels"
            : "its leader pod (group " + pod.multinode_group + ") is not among the probed pods";
    to.backends.unknown_next =
        from != nullptr ? "see why the leader pod " + leader->name + " was not probed"
        : pods_named
            ? "run without --pod, so that the leader pod is probed with it"
            : "kubectl get pods -n " + pod.namespace_ + " -o wide (the leader pod is missing)";
  }
}

// What the pod's KV-transfer metrics say, beside what its log says: judged against the line rate
// of its KV ports (the probe's facts, when it parsed).
void add_metrics_evidence(ProbedPod& p, bool disagg) {
  rules::NodeContext context;
  context.disagg = disagg;
  const auto line_rate = p.parsed ? rules::kv_line_rate_gbps(p.node, context) : std::nullopt;
  auto judged = judge_pod_metrics(*p.probe.metrics, p.probe.pod, line_rate);
  auto& to = p.evidence.findings;
  to.insert(to.end(), judged.findings.begin(), judged.findings.end());
  p.evidence.metrics_facts = std::move(judged.facts);
}

// The namespaces the proxy lets exec and reads into: those of the target pods (every one's log
// and events are read; only probeable ones are exec'd).
std::vector<std::string> exec_namespaces(const std::vector<kube::PodInfo>& pods) {
  std::vector<std::string> names;
  for (const auto& pod : pods)
    names.push_back(pod.namespace_);
  return names;
}

}  // namespace

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
  PodRun run{std::move(*session),
             nullptr,
             selection->described,
             kube::select_targets(selection->pods, options.targets.all_components),
             {},
             false,
             {},
             {}};
  run.disagg = is_disagg(run.pods);
  if (run.pods.empty() && options.targets.pods.empty()) {
    run.elsewhere = look_elsewhere(run.session, options.targets);
  }
  run.pod_exec =
      std::make_shared<PodExec>(run.session.base, options.run.transport, exec_namespaces(run.pods));
  ReadLimits reads;
  reads.deadline = options.run.timeout;
  // The workers' own KV-transfer metrics are judged in the nixl layer: nixl and all read them.
  const auto metrics = options.mode == "nixl" || options.mode == "all"
                           ? std::optional<std::chrono::milliseconds>(probe::kMetricsInterval)
                           : std::nullopt;
  // One kubectl get nodes beside the probes (known trouble's node.internalIP, platform.cloud).
  auto nodes =
      std::async(std::launch::async, [&run] { return read_node_objects(run.session, run.pods); });
  for (auto& probe :
       probe_pods(run.session, *run.pod_exec, run.pods, script, options.run, &reads, metrics)) {
    ProbedPod p{std::move(probe), {}, false, {}, {}, {}, {}};
    if (p.probe.reads)
      p.evidence = judge_reads(*p.probe.reads, p.probe.pod, first_layer);
    p.parsed = start_target(p.probe, first_layer, options.run, p.target);
    if (p.parsed) {
      const auto sections = probe::split_sections(p.probe.result->out);  // once for both
      p.node = probe::parse_node_probe(sections);
      p.nixl = probe::parse_nixl_probe(sections);
      p.backends = rules::kv_backends(p.nixl.backend_env, p.probe.pod.command_line,
                                      rules::engine_transceiver(p.nixl));
    }
    if (p.probe.metrics)
      add_metrics_evidence(p, run.disagg);
    run.probed.push_back(std::move(p));
  }
  run.nodes = nodes.get();
  use_leader_backends(run, !options.targets.pods.empty());
  for (const auto& w : selection->warnings) {
    run.described += "; " + w;
  }
  return run;
}

void add_same_node_findings(PodRun& run) {
  std::vector<rules::SameNodePod> pods;
  std::vector<ProbedPod*> owners;
  for (auto& p : run.probed) {
    if (!p.parsed)
      continue;
    const auto& pod = p.probe.pod;
    pods.push_back({pod.name, pod.role, pod.node, pod.host_ipc, pod.host_pid, &p.node});
    owners.push_back(&p);
  }
  auto findings = rules::same_node_findings(pods);
  for (std::size_t i = 0; i < owners.size(); ++i) {
    auto& target = owners[i]->target.findings;
    target.insert(target.end(), findings[i].begin(), findings[i].end());
  }
}

void add_pair_link_findings(PodRun& run, const std::vector<rules::PairCandidate>& candidates) {
  std::vector<ProbedPod*> owners;  // the candidates' order: the parsed pods
  for (auto& p : run.probed)
    if (p.parsed)
      owners.push_back(&p);
  for (const auto& pair : rules::select_pairs(candidates, {}).pairs) {
    auto& prefill = *owners[pair.prefill];
    auto& decode = *owners[pair.decode];
    auto found =
        rules::pair_link_findings({prefill.probe.pod.name, prefill.probe.pod.node, &prefill.node},
                                  {decode.probe.pod.name, decode.probe.pod.node, &decode.node});
    auto& to_prefill = prefill.target.findings;
    to_prefill.insert(to_prefill.end(), found.prefill.begin(), found.prefill.end());
    auto& to_decode = decode.target.findings;
    to_decode.insert(to_decode.end(), found.decode.begin(), found.decode.end());
  }
}

Expected<report::Report> pods_report(const Options& options, bool with_nixl,
                                     report::Layer first_layer, JudgePods judge) {
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
  add_known_trouble(*run);
  add_pod_targets(*run, r);
  return r;
}

void add_pod_targets(PodRun& run, report::Report& report) {
  const auto kubectl = outside::printable_argv(run.session.base);
  for (auto& p : run.probed) {
    const auto& pod = p.probe.pod;
    for (auto& f : p.evidence.findings) {
      if (shown_in_mode(report.mode, f.layer))
        p.target.findings.push_back(std::move(f));
    }
    if (!p.evidence.facts.empty())
      p.target.facts["logs"] = std::move(p.evidence.facts);
    if (!p.evidence.metrics_facts.empty())
      p.target.facts["kvMetrics"] = std::move(p.evidence.metrics_facts);
    make_runnable(p.target, {kubectl, pod.name, pod.namespace_, pod.container, pod.node});
    report.targets.push_back(std::move(p.target));
  }
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
    report.next.insert(report.next.end(), run.elsewhere.begin(), run.elsewhere.end());
  }
}

}  // namespace icheck::check
