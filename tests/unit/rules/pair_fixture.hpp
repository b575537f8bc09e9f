#pragma once
// A pod to pair in the pairing and transfer tests.

#include "rules/pair/pairing.hpp"

#include <string>

namespace icheck::rules::test {

inline PairCandidate pair_pod(std::string name, dynamo::Role role, std::string node,
                              std::string ip) {
  PairCandidate p;
  p.pod = std::move(name);
  p.namespace_ = "dynamo";
  p.node = std::move(node);
  p.pod_ip = std::move(ip);
  p.role = role;
  p.container = "main";
  return p;
}

}  // namespace icheck::rules::test
