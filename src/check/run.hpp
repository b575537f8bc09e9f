#pragma once
#include "check/options.hpp"
#include "report/model.hpp"
#include "util/expected.hpp"

namespace icheck::check {

// Runs one mode end to end (targets -> plan -> run -> parse -> judge) and returns its report.
// An Error means nothing could be checked at all (exit 3).
Expected<report::Report> run_mode(const Options& options);

}  // namespace icheck::check
