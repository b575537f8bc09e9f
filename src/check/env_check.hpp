#pragma once
// env mode: a recipe's transport settings, one target per manifest file and deployment.

#include "recipe/model.hpp"
#include "report/model.hpp"
#include "util/expected.hpp"

#include <filesystem>

namespace icheck::check {

struct EnvOptions {
  std::filesystem::path path;  // recipe mode folder or one manifest file
  bool recursive = false;      // also nested variant folders and kustomize/
};

// Files that fail to load go to Report::errors, files without a DynamoGraphDeployment to
// Report::limitations; an error (exit 3) only when no deployment could be checked at all.
Expected<report::Report> check_env(const EnvOptions& options);

// The recipe's files and their env report, for the modes that go on to the pods (--live, all).
struct LoadedRecipe {
  std::vector<recipe::ManifestFile> files;
  report::Report report;
};
Expected<LoadedRecipe> load_env_report(const std::filesystem::path& path, bool recursive);

// One manifest target (no I/O): name "<file>" or "<file>:<dgd>" when the file holds several.
report::Target env_target(const recipe::ManifestFile& file, const recipe::Deployment& dgd);

}  // namespace icheck::check
