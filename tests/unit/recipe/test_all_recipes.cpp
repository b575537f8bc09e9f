// env-mode loading over every recipe folder shipped in tests/recipes, checked against an
// independent line scan and YAML tree walk (recipe_walk.hpp), not the loader's own output.

#include "dynamo/transport_vars.hpp"
#include "recipe/load.hpp"
#include "recipe_walk.hpp"

#include <doctest/doctest.h>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;
using namespace icheck;

namespace {

// apiVersion of each DynamoGraphDeployment document, in file order, from the raw text.
std::vector<std::string> scan_dgd_api_versions(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  std::string api;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("---")) {
      api.clear();
    } else if (line.starts_with("apiVersion:")) {
      api = line.substr(line.find_first_not_of(' ', 11));
    } else if (line == "kind: DynamoGraphDeployment") {
      out.push_back(api);
    }
  }
  return out;
}

std::set<std::string> loader_transport_names(const recipe::ManifestFile& file) {
  std::set<std::string> out;
  for (const auto& dgd : file.deployments) {
    for (const auto& service : dgd.services) {
      for (const auto& var : service.env) {
        if (dynamo::is_transport_var(var.name)) {
          out.insert(var.name);
        }
      }
    }
  }
  return out;
}

std::set<std::string> keys(const std::map<std::string, int>& map) {
  std::set<std::string> out;
  for (const auto& [key, count] : map) {
    out.insert(key);
  }
  return out;
}

}  // namespace

TEST_CASE("every recipe folder loads without errors, every DGD with its API version") {
  const auto folders = test::recipe_folders();
  REQUIRE(folders.size() == 91);
  int files = 0;
  int dgds = 0;
  int without_dgd = 0;
  for (const auto& folder : folders) {
    CAPTURE(folder);
    auto loaded = recipe::load_recipe(folder, false);
    REQUIRE(loaded.has_value());
    for (const auto& file : *loaded) {
      CAPTURE(file.display_name);
      ++files;
      CHECK_FALSE(file.error.has_value());
      std::vector<std::string> versions;
      for (const auto& dgd : file.deployments) {
        versions.push_back(dgd.api_version);
        CHECK_FALSE(dgd.services.empty());
      }
      CHECK(versions == scan_dgd_api_versions(file.path));
      dgds += static_cast<int>(file.deployments.size());
      if (file.deployments.empty()) {
        ++without_dgd;
        CHECK_FALSE(file.other_kinds.empty());
      }
    }
  }
  CHECK(files == 118);
  CHECK(dgds == 97);
  CHECK(without_dgd == 21);
}

TEST_CASE("every transport variable in a DGD is reported, for the right service") {
  std::size_t file_var_pairs = 0;
  for (const auto& folder : test::recipe_folders()) {
    auto loaded = recipe::load_recipe(folder, false);
    REQUIRE(loaded.has_value());
    for (const auto& file : *loaded) {
      CAPTURE(file.path);
      const auto scanned = keys(test::scan_transport_lines(file.path));
      file_var_pairs += scanned.size();
      CHECK(loader_transport_names(file) == scanned);
      const auto walked = test::walk_transport_names(file.path);
      std::size_t services = 0;
      for (const auto& dgd : file.deployments) {
        for (const auto& service : dgd.services) {
          ++services;
          std::set<std::string> mine;
          for (const auto& var : service.env) {
            if (dynamo::is_transport_var(var.name)) {
              mine.insert(var.name);
            }
          }
          const std::string key = dgd.name + "/" + service.name;
          CAPTURE(key);
          REQUIRE(walked.contains(key));
          CHECK(mine == walked.at(key));
        }
      }
      CHECK(services == walked.size());
    }
  }
  // Distinct (file, variable) pairs; cross-checked with grep over the DGD files.
  CHECK(file_var_pairs == 305);
}

TEST_CASE("the whole tree loads recursively, kustomize and nested variants included") {
  auto loaded = recipe::load_recipe(test::recipes_root, true);
  REQUIRE(loaded.has_value());
  CHECK(loaded->size() == 118);
  for (const auto& file : *loaded) {
    CAPTURE(file.display_name);
    CHECK_FALSE(file.error.has_value());
  }
}
