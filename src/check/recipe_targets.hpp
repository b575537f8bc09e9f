#pragma once
#include "util/expected.hpp"

#include <string>
#include <vector>

namespace icheck::check {

// --recipe DIR: the DynamoGraphDeployment names its manifests define ("" → none asked).
Expected<std::vector<std::string>> recipe_deployments(const std::string& recipe_dir);

}  // namespace icheck::check
