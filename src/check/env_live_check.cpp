#include "check/env_live_check.hpp"

#include "check/env_check.hpp"
#include "check/known_trouble_pods.hpp"
#include "check/pod_pipeline.hpp"
#include "check/stopped.hpp"
#include "recipe/load.hpp"
#include "rules/env/env_live.hpp"

#include <algorithm>
#include <cctype>

namespace icheck::check {
namespace {

bool same_name(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// The operator labels each pod with its component (service) name; fall back to the role.
const recipe::Service* service_of(const kube::PodInfo& pod, const recipe::Deployment& dgd) {
  for (const auto& s : dgd.services) {
    if (same_name(s.name, pod.component)) {
      return &s;
    }
  }
  for (const auto& s : dgd.services) {
    if (s.role == pod.role) {
      return &s;
    }
  }
  return nullptr;
}

report::Finding unmatched(const kube::PodInfo& pod) {
  report::Finding f;
  f.name = "service";
  f.status = report::Status::skipped;
  f.detail = "no service of the recipe matches component \"" + pod.component + "\" (role " +
             std::string(dynamo::role_name(pod.role)) + "): not compared";
  return f;
}

}  // namespace

std::vector<std::string> LiveRecipe::names() const {
  std::vector<std::string> out;
  for (const auto& r : refs) {
    out.push_back(r.dgd->name);
  }
  return out;
}

LiveRecipe live_recipe(const std::vector<recipe::ManifestFile>& files, report::Report& report) {
  LiveRecipe live;
  for (const auto& file : files) {
    for (const auto& dgd : file.deployments) {
      auto it = std::find_if(live.refs.begin(), live.refs.end(),
                             [&](const LiveRecipe::Ref& r) { return r.dgd->name == dgd.name; });
      if (it == live.refs.end()) {
        live.refs.push_back({&file, &dgd});
      } else {
        report.limitations.push_back(file.display_name + " also defines " + dgd.name +
                                     "; the pods were compared with " + it->file->display_name +
                                     " (pass one manifest file to choose)");
      }
    }
  }
  return live;
}

void add_live_findings(const kube::PodInfo& pod, const probe::NodeFacts& facts,
                       const LiveRecipe& recipe, report::Target& target,
                       const rules::KvBackends* pod_kv) {
  auto ref = std::find_if(recipe.refs.begin(), recipe.refs.end(),
                          [&](const LiveRecipe::Ref& r) { return r.dgd->name == pod.dgd; });
  const recipe::Service* service = ref == recipe.refs.end() ? nullptr : service_of(pod, *ref->dgd);
  if (!service) {
    target.findings.push_back(unmatched(pod));
    return;
  }
  auto findings = rules::compare_live(*ref->dgd, *service, facts.transport_env);
  target.findings.insert(target.findings.end(), findings.begin(), findings.end());
  if (pod_kv) {
    target.findings.push_back(rules::compare_kv_live(*service, *pod_kv));
  }
}

Expected<report::Report> check_env_live(const Options& options) {
  auto loaded = load_env_report(options.path, options.recursive);
  if (!loaded) {
    return loaded.error();
  }
  auto* report = &loaded->report;
  const auto live = live_recipe(loaded->files, *report);
  auto run = run_pods(options, live.names(), probe_script(false), report::Layer::env);
  if (!run) {
    return stopped(std::move(*report), run.error());  // the recipe's targets are kept
  }
  start_report(*run, *report);
  for (auto& p : run->probed) {
    if (p.parsed) {
      p.target.summary = "live env of " + p.probe.pod.component;
      add_live_findings(p.probe.pod, p.node, live, p.target);
    }
  }
  // The running pods' own facts (their whole environment, image, node) through the same
  // known-trouble rows the recipe's services went through: a pod can differ from its recipe.
  add_known_trouble(*run);
  add_pod_targets(*run, *report);
  return std::move(*report);
}

}  // namespace icheck::check
