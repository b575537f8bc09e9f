#pragma once
#include "report/model.hpp"

namespace icheck::test {

inline report::Finding finding(std::string name, report::Layer layer, report::Status status,
                               std::string detail, std::string next = "") {
  report::Finding f;
  f.name = std::move(name);
  f.layer = layer;
  f.status = status;
  f.detail = std::move(detail);
  f.next = std::move(next);
  return f;
}

inline report::Target pod(std::string name, std::string role, std::string node,
                          std::vector<report::Finding> findings) {
  report::Target t;
  t.name = std::move(name);
  t.role = std::move(role);
  t.node = std::move(node);
  t.findings = std::move(findings);
  return t;
}

}  // namespace icheck::test
