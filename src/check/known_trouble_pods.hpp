#pragma once
// The known-trouble rows (src/knowledge/data/trouble_*.yaml) applied to every probed pod and to
// its prefill/decode pairs: each hit a finding in its row's layer on the pod's target (a pair's
// on both pods, naming the other), plus the stack-versions finding. Every pod mode calls it
// once, after its own judging.

#include "check/pod_pipeline.hpp"

namespace icheck::check {

void add_known_trouble(PodRun& run);

}  // namespace icheck::check
