#pragma once
// Pods alike: pods whose findings read the same once their own pod and node names are taken out
// (one image on one kind of node). The default view prints one table for each kind, headed by
// how many pods it holds and their names, instead of the same table once per pod.

#include "report/model.hpp"

#include <string>
#include <vector>

namespace icheck::report {

struct PodKind {
  std::vector<const Target*> pods;  // in report order
  // The kind's table: the first pod, its texts saying <pod> and <node> where they named its own
  // pod and node; the pod itself when the kind holds one.
  Target shown;
};

// `text` with the target's own pod and node names taken out ("<pod>", "<node>").
std::string without_names(const std::string& text, const Target& target);

// The pods of the report by kind, in the order of each kind's first pod; every other target
// (a manifest, --local) is a kind of its own.
std::vector<PodKind> pod_kinds(const Report& report);

// Every target a kind of its own (-o wide prints each pod).
std::vector<PodKind> every_target(const Report& report);

// "2 prefill, 2 decode": how many pods of each role the kind holds, in order of appearance.
std::string role_counts(const PodKind& kind);

}  // namespace icheck::report
