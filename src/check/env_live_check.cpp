#include "check/env_live_check.hpp"

#include "check/env_check.hpp"
#include "check/kube_session.hpp"
#include "check/pod_probe.hpp"
#include "check/pod_targets.hpp"
#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"
#include "recipe/load.hpp"
#include "rules/env_live.hpp"

#include <algorithm>
#include <cctype>

namespace icheck::check {
namespace {

struct ServiceRef {
  const recipe::ManifestFile* file = nullptr;
  const recipe::Deployment* dgd = nullptr;
};

bool same_name(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// The first file that defines each deployment name; alternatives are said as a limitation.
std::vector<ServiceRef> deployments_by_name(const std::vector<recipe::ManifestFile>& files,
                                            report::Report& report) {
  std::vector<ServiceRef> refs;
  for (const auto& file : files) {
    for (const auto& dgd : file.deployments) {
      auto it = std::find_if(refs.begin(), refs.end(),
                             [&](const ServiceRef& r) { return r.dgd->name == dgd.name; });
      if (it == refs.end()) {
        refs.push_back({&file, &dgd});
      } else {
        report.limitations.push_back(file.display_name + " also defines " + dgd.name +
                                     "; the pods were compared with " + it->file->display_name +
                                     " (pass one manifest file to choose)");
      }
    }
  }
  return refs;
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
             pod.role + "): not compared";
  return f;
}

void compare(const PodProbe& probe, const std::vector<ServiceRef>& refs, const RunOptions& run,
             report::Report& report) {
  report::Target t;
  if (start_target(probe, report::Layer::env, run, t)) {
    const auto facts = probe::parse_node_probe(probe.result->out);
    auto ref = std::find_if(refs.begin(), refs.end(),
                            [&](const ServiceRef& r) { return r.dgd->name == probe.pod.dgd; });
    const recipe::Service* service = ref == refs.end() ? nullptr : service_of(probe.pod, *ref->dgd);
    if (!service) {
      t.findings.push_back(unmatched(probe.pod));
    } else {
      t.summary = "live env vs " + ref->file->display_name + " service " + service->name;
      auto findings = rules::compare_live(service->name, service->env, facts.transport_env);
      t.findings.insert(t.findings.end(), findings.begin(), findings.end());
    }
  }
  report.targets.push_back(std::move(t));
}

std::vector<std::string> names_of(const std::vector<ServiceRef>& refs) {
  std::vector<std::string> names;
  for (const auto& r : refs) {
    names.push_back(r.dgd->name);
  }
  return names;
}

}  // namespace

Expected<report::Report> check_env_live(const Options& options) {
  auto files = recipe::load_recipe(options.path, options.recursive);
  if (!files) {
    return files.error();
  }
  auto report = env_report(*files, options.path);
  if (!report) {
    return report;
  }
  auto session = open_session(options.kube, options.run.timeout);
  if (!session) {
    return session.error();
  }
  const auto refs = deployments_by_name(*files, *report);
  auto selection = find_pods(*session, options.targets, names_of(refs));
  if (!selection) {
    return selection.error();
  }
  const auto pods = kube::select_targets(selection->pods, options.targets.all_components);
  report->context = session->resolved.context;
  report->namespace_ = session->resolved.namespace_;
  report->header.push_back(pods_phrase(pods));
  if (pods.empty()) {
    report->errors.push_back("--live: no running worker pods of " + selection->described);
  }
  for (const auto& probe :
       probe_pods(*session, pods, std::string(probe::node_probe_script()), options.run)) {
    compare(probe, refs, options.run, *report);
  }
  return report;
}

}  // namespace icheck::check
