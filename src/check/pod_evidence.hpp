#pragma once
// What a worker's own log and its pod's events say (pod_read.hpp), judged by the signature rows
// (rules/logs/signatures.hpp): findings in each row's layer, or a `skipped` naming the missing
// permission (never an error for the run), and facts.logs for -o json.

#include "check/pod_read.hpp"
#include "kube/pods.hpp"
#include "report/model.hpp"

#include <boost/json/object.hpp>
#include <vector>

namespace icheck::check {

struct PodEvidence {
  std::vector<report::Finding> findings;
  boost::json::object facts;          // facts.logs; empty when nothing was read
  boost::json::object metrics_facts;  // facts.kvMetrics; empty when they were not asked
};

// `unread_layer`: where a read that could not be made is listed (the mode's first layer).
PodEvidence judge_reads(const PodReads& reads, const kube::PodInfo& pod,
                        report::Layer unread_layer);

// Which findings a mode shows: node the layers up to ucx, nixl the nixl layer, all every one.
bool shown_in_mode(const std::string& mode, report::Layer layer);

}  // namespace icheck::check
