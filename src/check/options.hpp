#pragma once
// Everything a mode needs from the command line, filled in by plugin/ and read by check/.

#include "kube/flags.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace icheck::check {

// Which pods to probe (node, nixl, all). None given: every Dynamo worker pod in the namespace.
struct TargetOptions {
  std::vector<std::string> pods;
  std::string selector;
  std::string deployment;
  std::string recipe;
  bool local = false;
  bool all_components = false;
  std::optional<std::string> container;  // -c; default "main"
};

// How commands reach the pods: one kubectl proxy for the run and our own WebSocket streams
// (stream/), or one `kubectl exec` child per pod and command.
enum class Transport { proxy, kubectl };

struct RunOptions {
  unsigned parallel = 16;
  std::chrono::milliseconds timeout{30000};  // per pod
  std::size_t output_cap = 4u << 20;         // bytes per pod and stream
  bool progress = false;                     // stderr is a terminal
  Transport transport = Transport::proxy;
};

struct Options {
  std::string mode;  // env, node, nixl, all
  kube::KubeFlags kube;
  TargetOptions targets;
  RunOptions run;
  std::string path;  // env/all: recipe folder or manifest
  bool recursive = false;
  bool live = false;
  bool transfer = false;
  std::string pair;                // PREFILL,DECODE
  std::string pairs = "cover";     // cover | all
  std::string test_image;          // for the kubectl debug commands when no image has a tool
  std::string test_tool = "auto";  // auto | nixl-python | nixlbench | ucx_perftest | nixl_test
  std::chrono::milliseconds transfer_timeout{60000};
  // "" | rails: --transfer's pair NIC by NIC (rules/transfer/matrix.hpp) | nodes: every node
  // pair (rules/transfer/node_matrix.hpp) | full: nodes, then rails for the first pair
  std::string matrix;
  std::chrono::milliseconds matrix_budget{600000};  // every cell of --matrix together
};

}  // namespace icheck::check
