#include "check/recipe_targets.hpp"

#include "recipe/load.hpp"

#include <algorithm>

namespace icheck::check {

Expected<std::vector<std::string>> recipe_deployments(const std::string& recipe_dir) {
  std::vector<std::string> names;
  if (recipe_dir.empty()) {
    return names;
  }
  auto files = recipe::load_recipe(recipe_dir, false);
  if (!files) {
    return files.error();
  }
  for (const auto& file : *files) {
    for (const auto& d : file.deployments) {
      if (!d.name.empty() && std::find(names.begin(), names.end(), d.name) == names.end()) {
        names.push_back(d.name);
      }
    }
  }
  if (names.empty()) {
    return Error{"no DynamoGraphDeployment in " + recipe_dir};
  }
  return names;
}

}  // namespace icheck::check
