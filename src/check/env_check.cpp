#include "check/env_check.hpp"

#include "check/env_facts.hpp"
#include "recipe/load.hpp"
#include "recipe/shape.hpp"
#include "rules/env/env_rules.hpp"
#include "rules/known/service_trouble.hpp"
#include "rules/pair/pairing.hpp"
#include "util/join.hpp"

namespace icheck::check {

report::Target env_target(const recipe::ManifestFile& file, const recipe::Deployment& dgd) {
  report::Target target;
  target.kind = report::TargetKind::manifest;
  target.name = file.deployments.size() > 1 ? file.display_name + ":" + dgd.name
                                            : file.display_name;
  target.summary = env_summary(dgd);
  target.facts = env_facts(dgd);
  target.findings = rules::env_findings(dgd);
  for (auto& f : rules::known::service_findings(dgd))
    target.findings.push_back(std::move(f));  // the known-trouble rows (src/knowledge/data/)
  return target;
}

namespace {

constexpr std::string_view kLiveCommand = "kubectl dynamo-icheck env --live";

std::string live_command(const std::filesystem::path& path, bool recursive) {
  return std::string(kLiveCommand) + " " + rules::shell_line({path.string()}) +
         (recursive ? " --recursive" : "");
}

// A file of a thousand tiny documents names ten of them, not a thousand.
std::string kinds_list(const recipe::ManifestFile& file) {
  return file.other_kinds.empty() ? "no documents" : join_first(file.other_kinds, 10);
}

void add_file(const recipe::ManifestFile& file, report::Report& report) {
  if (file.error) {
    report.errors.push_back(*file.error);
    return;
  }
  if (file.deployments.empty()) {
    report.limitations.push_back(file.display_name + ": no DynamoGraphDeployment (" +
                                 kinds_list(file) + "), not checked");
    return;
  }
  for (const auto& dgd : file.deployments) {
    report.targets.push_back(env_target(file, dgd));
    if (recipe::is_aggregated(dgd)) {
      report.limitations.push_back(report.targets.back().name +
                                   ": aggregated deployment, the KV transport is not exercised");
    }
  }
}

bool all_aggregated(const std::vector<recipe::ManifestFile>& files) {
  for (const auto& file : files) {
    for (const auto& dgd : file.deployments) {
      if (!recipe::is_aggregated(dgd)) {
        return false;
      }
    }
  }
  return true;
}

std::string nothing_checked(const report::Report& report) {
  std::string out = "no DynamoGraphDeployment could be checked";
  for (const auto& line : report.errors) {
    out += "; " + line;
  }
  for (const auto& line : report.limitations) {
    out += "; " + line;
  }
  return out;
}

// A manifest that could not be read is a target that could not be checked: the verdict
// never reads as if it had passed.
report::Target unread_target(const recipe::ManifestFile& file) {
  report::Target target;
  target.kind = report::TargetKind::manifest;
  target.name = file.display_name;
  report::Finding f;
  f.name = "manifest";
  f.layer = report::Layer::env;
  f.status = report::Status::skipped;
  f.detail = "could not check: " + file.error.value_or("cannot be read");
  target.findings.push_back(std::move(f));
  return target;
}

// The report from files already loaded.
Expected<report::Report> env_report(const std::vector<recipe::ManifestFile>& files,
                                    const std::filesystem::path& path) {
  report::Report report;
  report.mode = "env";
  report.header.push_back("recipe " + path.string());
  for (const auto& file : files) {
    add_file(file, report);
  }
  if (report.targets.empty()) {
    return Error{nothing_checked(report)};
  }
  for (const auto& file : files) {
    if (file.error) report.targets.push_back(unread_target(file));
  }
  report.transport_not_exercised = all_aggregated(files);
  return report;
}

}  // namespace

Expected<LoadedRecipe> load_env_report(const std::filesystem::path& path, bool recursive) {
  auto files = recipe::load_recipe(path, recursive);
  if (!files) {
    return files.error();
  }
  auto report = env_report(*files, path);
  if (!report) {
    return report.error();
  }
  return LoadedRecipe{std::move(*files), std::move(*report)};
}

Expected<report::Report> check_env(const EnvOptions& options) {
  auto loaded = load_env_report(options.path, options.recursive);
  if (!loaded) {
    return loaded.error();
  }
  // The same folder the same way (--recursive where this run needed it), so it finds the same
  // manifests; the findings' bare "env --live" gets the path too.
  const std::string live = live_command(options.path, options.recursive);
  for (auto& target : loaded->report.targets) {
    for (auto& f : target.findings) {
      if (f.next == kLiveCommand)
        f.next = live;
    }
  }
  loaded->report.limitations.push_back(
      "recipe text only: the operator and the image may add or change values; compare with "
      "the running pods: " +
      live);
  return std::move(loaded->report);
}

}  // namespace icheck::check
