#pragma once
// The part of every pod mode that is the same: resolve, find the pods, one probe script per
// pod in parallel, and the parsed facts per pod. Modes differ only in how they judge them.

#include "check/kube_session.hpp"
#include "check/node_objects.hpp"
#include "check/options.hpp"
#include "check/pod_evidence.hpp"
#include "check/pod_exec.hpp"
#include "check/pod_probe.hpp"
#include "probe/facts.hpp"
#include "probe/nixl/nixl_facts.hpp"
#include "report/model.hpp"
#include "rules/nixl/nixl_backend.hpp"
#include "rules/pair/pairing.hpp"
#include "util/expected.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace icheck::check {

struct ProbedPod {
  PodProbe probe;
  report::Target target;  // name, role, node; a skipped finding when it could not be probed
  bool parsed = false;    // the script's output could be read
  probe::NodeFacts node;
  probe::NixlFacts nixl;
  rules::KvBackends backends;  // from the probed env and the pod spec's command line
  PodEvidence evidence;        // what its log and events say (pod_evidence.hpp)
};

struct PodRun {
  KubeSession session;
  std::shared_ptr<PodExec> pod_exec;   // every exec of the run (probes, transfer tests)
  std::string described;               // "deployment x"
  std::vector<kube::PodInfo> pods;     // the selected worker pods
  std::vector<ProbedPod> probed;       // same order as pods
  bool disagg = false;                 // prefill and decode pods among them
  std::vector<std::string> elsewhere;  // no pod matched: where worker pods do run (next steps)
  // The pods' node objects where readable (check/node_objects.hpp), read beside the probes.
  std::map<std::string, kube::NodeObject> nodes;
};

// `deployments`: DGD names from a recipe (empty: the user's targets decide).
Expected<PodRun> run_pods(const Options& options, const std::vector<std::string>& deployments,
                          const std::string& script, report::Layer first_layer);

// context, namespace, heading words, and "no worker pods" as an error.
void start_report(const PodRun& run, report::Report& report);

// node, nixl and all: a prefill and a decode pod on one node without RDMA in both
// (rules/pair/same_node.hpp) get a "same node" finding; pods that could not be probed are left out.
void add_same_node_findings(PodRun& run);

// node and all: the prefill/decode pairs the transfer test would use (rules/pair/pairing.hpp,
// its default cover of every node, over nixl_check.hpp's pair_candidates) get findings where the
// RDMA path between the two pods is impossible or fragile (rules/pair/pair_link.hpp: link
// layer, MTU, IB subnet, RoCE GIDs).
void add_pair_link_findings(PodRun& run, const std::vector<rules::PairCandidate>& candidates);

// Moves each probed pod's target into the report with what its log and events say (the
// findings of the layers the report's mode shows, facts.logs), its next steps made runnable as
// printed (next_commands.hpp: the pod, node and kubectl flags filled in).
void add_pod_targets(PodRun& run, report::Report& report);

// The node script, with the NIXL fragment when the mode needs it.
std::string probe_script(bool with_nixl);

// A pod mode whole: the pods of `--recipe`'s deployments (or the user's targets) probed with the
// script, judged by `judge`, one target each in the report.
using JudgePods = void (*)(PodRun& run, const Options& options, report::Report& report);
Expected<report::Report> pods_report(const Options& options, bool with_nixl,
                                     report::Layer first_layer, JudgePods judge);

}  // namespace icheck::check
