#include "check/node_check.hpp"

#include "check/kube_session.hpp"
#include "check/pod_probe.hpp"
#include "check/pod_targets.hpp"
#include "check/recipe_targets.hpp"
#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"
#include "rules/node.hpp"


namespace icheck::check {
namespace {

void judge(const probe::NodeFacts& facts, const rules::NodeContext& context,
           report::Target& target) {
  auto findings = rules::judge_node(facts, context);
  target.findings.insert(target.findings.end(), findings.begin(), findings.end());
  if (target.summary.empty()) {
    target.summary = rules::node_summary(facts);
  }
  target.facts = rules::node_facts_json(facts);
}

report::Report local_report(const Options& options) {
  report::Report r;
  r.mode = options.mode;
  r.header = {"local machine"};
  report::Target t;
  t.kind = report::TargetKind::local;
  t.role = "local";
  const auto result = probe_local(std::string(probe::node_probe_script()), options.run);
  const auto facts = probe::parse_node_probe(result.out);
  t.name = facts.hostname.empty() ? "localhost" : facts.hostname;
  rules::NodeContext context;
  context.local = true;
  judge(facts, context, t);
  r.targets.push_back(std::move(t));
  r.limitations.push_back("no transfer was exercised: node checks read state, they do not move "
                          "data");
  return r;
}

}  // namespace

Expected<report::Report> check_node(const Options& options) {
  if (options.targets.local) {
    return local_report(options);
  }
  auto session = open_session(options.kube, options.run.timeout);
  if (!session) {
    return session.error();
  }
  auto deployments = recipe_deployments(options.targets.recipe);
  if (!deployments) {
    return deployments.error();
  }
  auto selection = find_pods(*session, options.targets, *deployments);
  if (!selection) {
    return selection.error();
  }
  const auto pods = kube::select_targets(selection->pods, options.targets.all_components);
  report::Report r;
  r.mode = options.mode;
  r.context = session->resolved.context;
  r.namespace_ = session->resolved.all_namespaces ? "(all)" : session->resolved.namespace_;
  r.header = {selection->described, pods_phrase(pods)};
  r.errors = selection->warnings;
  if (pods.empty()) {
    r.errors.push_back("no Dynamo worker pods found for " + selection->described + " in " +
                       (session->resolved.all_namespaces ? std::string("any namespace")
                                                         : "namespace " + r.namespace_));
    return r;
  }
  rules::NodeContext context;
  context.disagg = is_disagg(pods);
  for (const auto& probe :
       probe_pods(*session, pods, std::string(probe::node_probe_script()), options.run)) {
    report::Target t;
    if (start_target(probe, report::Layer::fabric, options.run, t)) {
      context.role = probe.pod.role;
      judge(probe::parse_node_probe(probe.result->out), context, t);
    }
    r.targets.push_back(std::move(t));
  }
  r.limitations.push_back("no transfer was exercised: kubectl dynamo-icheck nixl --transfer");
  return r;
}

}  // namespace icheck::check
