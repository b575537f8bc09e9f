#pragma once
// The report model: what every mode produces and every renderer consumes.
// Findings are judged facts; the verdict is derived from them, never stored by hand.

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::report {

enum class Status { ok, warn, fail, skipped };

// In the order the transport is built: a failure in an earlier layer explains later ones.
enum class Layer { env, fabric, rdma_access, gpudirect, nvlink, ucx, nixl };

// log: a saved log or events file judged offline (`logs FILE|DIR|-`).
enum class TargetKind { pod, local, manifest, log };

// A file the user named (a manifest or a saved log), not a pod or a machine.
inline bool is_file(TargetKind k) {
  return k == TargetKind::manifest || k == TargetKind::log;
}

struct Finding {
  std::string name;  // short check name, e.g. "ports", "memlock", "UCX_TLS"
  // The name for scripts (-o wide, JSON), without spaces: "decode/UCX_TLS"; "" when it is the
  // name with its spaces as '-' (check_id).
  std::string id;
  Layer layer = Layer::env;
  Status status = Status::skipped;
  std::string detail;  // one line
  std::string next;    // the exact next command or change, where one settles it
  // Optional checks (GDRCopy, informational listings) are shown but never make a
  // verdict worse than surface-ok.
  bool required = true;
  // A pairwise transfer test's result: `confirmed` needs every one of them ok.
  bool is_transfer = false;
  // KV moved by the workers' own traffic at line-rate class, read from their metrics: evidence
  // like a transfer test where none ran (the verdict says which).
  bool is_observed_traffic = false;
  // The knowledge row (src/knowledge/data) that made this finding, "" for a check of the code.
  std::string row;
};

// A finding off the deployment's KV path is shown, not judged: optional, a fail reads as a warn,
// and a warn says why in parentheses.
inline void off_kv_path(Finding& f, const std::string& why) {
  f.required = false;
  if (f.status == Status::fail)
    f.status = Status::warn;
  if (f.status == Status::warn)
    f.detail += " (" + why + ")";
}

struct Target {
  std::string name;
  TargetKind kind = TargetKind::pod;
  std::string role;        // prefill, decode, worker, frontend, ... or "" when unknown
  std::string multinode;   // "leader" or "worker" of a multinode worker; "" otherwise
  std::string node;        // node name (pods), host name (local), path (manifest)
  std::string namespace_;  // the pod's namespace; "" for a manifest or --local
  std::string summary;  // one line under the target heading, e.g. "8x H100 . 8x mlx5 400 Gb/s IB"
  std::vector<Finding> findings;
  boost::json::object facts;  // what was read, typed; rendered as-is in json/yaml
};

// One next step of the verdict as the default view prints it: the same step for many pods, once.
struct NextStep {
  std::string text;               // the step of the first pod it is for (runnable as printed)
  std::vector<std::string> pods;  // the pods whose step this is, in report order
  bool per_pod = false;           // their steps differ only in their own pod and node names
};

// `interrupted`: SIGINT/SIGTERM/SIGHUP/SIGQUIT cut the run short (exit 128 + signal).
enum class VerdictStatus { confirmed, surface_ok, unconfirmed, blocked, error, interrupted };

struct Verdict {
  VerdictStatus status = VerdictStatus::error;
  std::optional<Layer> layer;  // first blocking layer (blocked) or first open layer (unconfirmed)
  std::string summary;         // the whole verdict in one sentence (JSON/YAML)
  // The same, in parts, for a status line that fits a terminal and the lines under it:
  std::string headline;  // the words after the status: "at rdma-access on 1 of 4 pods"
  std::string scope;     // "1 of 4 pods", "all 8 decode pods"; "" when no target is at fault
  std::string check;     // the first check at fault at `layer` ...
  std::string detail;    // ... and its whole detail
  std::vector<std::string> affected;     // every target at fault at `layer`, in report order
  std::string transfer;                  // Report::transfer_summary, where transfers ran
  std::vector<std::string> next;         // de-duplicated, in order
  std::vector<NextStep> steps;           // `next` grouped: one per action (the default view)
  std::vector<std::string> limitations;  // de-duplicated, in order
};

struct Report {
  std::string mode;                 // env, node, nixl, all
  std::string context;              // kube context ("" for env without a cluster, or --local)
  std::string namespace_;           // namespace ("" likewise)
  std::vector<std::string> header;  // extra heading words, e.g. "deployment x", "4 worker pods"
  std::vector<Target> targets;
  std::vector<std::string> limitations;  // mode-level limitations (e.g. aggregated deployment)
  std::vector<std::string> errors;       // inputs that could not be checked (bad files, ...)
  std::vector<std::string> next;         // mode-level next commands (e.g. the transfer test)
  // Where transfer tests ran: the slowest or failing pair and its nodes, added to the verdict.
  std::string transfer_summary;
  // `--matrix nodes|full`: every node pair's cell (report/transfer_matrix.hpp); empty without.
  boost::json::object transfer_node_matrix;
  // True when the checks can never prove the transport (e.g. an aggregated deployment):
  // the verdict is then never better than surface-ok.
  bool transport_not_exercised = false;
  // "SIGINT", "SIGTERM", "SIGHUP" or "SIGQUIT" when the run was cut short by one: the report
  // holds what was gathered before, and the verdict is `interrupted`.
  std::string interrupted;
  // Why the run could not go on (kubeconfig, cluster unreachable, no such deployment), also in
  // `errors`: the verdict is `error` whatever targets were gathered before.
  std::string stopped;
};

// The finding's id: `id`, else the name; any blank in it becomes '-' ("kv transfer" ->
// "kv-transfer"), so a row splits on blanks and a JSON id matches a shell word.
std::string check_id(const Finding& f);

// One status for the whole target, for scripts: fail when any finding failed, else the worst
// required status (an optional warn, e.g. GDRCopy, does not count), skipped with no finding.
Status target_status(const Target& t);

std::string_view to_string(Status s);
// How bad a status is for the KV path: ok 0 < skipped 1 < warn 2 < fail 3 (the worst one shows).
int severity(Status s);
std::string_view to_string(Layer l);
std::string_view to_string(TargetKind k);
std::string_view to_string(VerdictStatus v);

// Exit codes follow the monitoring-plugin convention: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
// `interrupted` gives 3 here: only the caller knows the signal (it exits 128 + signal).
int exit_code(VerdictStatus v);

}  // namespace icheck::report
