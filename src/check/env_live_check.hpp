#pragma once
#include "check/options.hpp"
#include "report/model.hpp"
#include "util/expected.hpp"

namespace icheck::check {

// `env --live`: the recipe's report, then per running worker pod of its deployments the
// recipe's transport settings against what the pod really has (operator and image included).
Expected<report::Report> check_env_live(const Options& options);

}  // namespace icheck::check
