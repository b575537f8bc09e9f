#pragma once
#include "check/options.hpp"
#include "report/model.hpp"
#include "util/expected.hpp"

namespace icheck::check {

// `node`: the node probe in every selected worker pod (or --local), judged layer by layer.
Expected<report::Report> check_node(const Options& options);

struct PodRun;
// The node findings, summary and facts of every probed pod (shared with `all`).
void judge_node_pods(PodRun& run);

}  // namespace icheck::check
