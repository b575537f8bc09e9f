#pragma once
#include "check/options.hpp"
#include "report/model.hpp"
#include "util/expected.hpp"

namespace icheck::check {

// `all RECIPE_DIR`: env on the recipe, then node, nixl and the live env comparison on every
// worker pod of the deployments it defines, the cross-pod checks, and one verdict.
Expected<report::Report> check_all(const Options& options);

}  // namespace icheck::check
