#pragma once
// Every `next` runnable as printed (DESIGN.md "Output contract"): in pod mode the rules' next
// steps name "<node>", "<pod>" or "<namespace>" and run tools like `nvidia-smi` without saying
// where; here, where the pod, its node and the kubectl flags are known, they become commands that
// run as printed. Pure: text in, text out.

#include "check/options.hpp"
#include "report/model.hpp"

#include <string>
#include <vector>

namespace icheck::check {

struct PodPlace {
  std::vector<std::string> kubectl;  // the printable kubectl argv prefix (no credentials)
  std::string pod;
  std::string namespace_;
  std::string container;
  std::string node;  // "" when unscheduled
};

// One next step with its placeholders filled and its in-pod commands behind
// `kubectl exec POD -n NS -c C --`; prose after a command becomes a shell comment.
std::string runnable_next(const std::string& next, const PodPlace& place);

// runnable_next on every finding of the pod's target.
void make_runnable(report::Target& target, const PodPlace& place);

// "kubectl dynamo-icheck WORDS" on the same pods as this run: its targets and the kubectl flags
// that choose the cluster and namespace (never a credential).
std::string plugin_command(const std::string& words, const Options& options);

}  // namespace icheck::check
