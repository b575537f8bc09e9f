#pragma once
#include "check/options.hpp"
#include "report/model.hpp"

namespace icheck::check {

// Runs one mode end to end (targets -> plan -> run -> parse -> judge) and returns its report,
// always: where the run could not go on (kubeconfig, cluster unreachable, no manifest), the
// report's `stopped` says why and its verdict is `error` (exit 3).
report::Report run_mode(const Options& options);

}  // namespace icheck::check
