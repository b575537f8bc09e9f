#pragma once
// What a transfer matrix's judgement is made of (rails: matrix_judge.cpp; nodes: node_matrix.cpp):
// parts, each a status with its one-line text and next step; the finding takes the worst part's
// status and next step and says every part's text. Pure.

#include "report/model.hpp"

#include <string>
#include <vector>

namespace icheck::rules {

struct MatrixPart {
  report::Status status;
  std::string text;
  std::string next;
};

// The parts' texts in order; `f` gets the worst status among ok and theirs, and that part's next.
inline std::vector<std::string> fold_parts(const std::vector<MatrixPart>& parts,
                                           report::Finding& f) {
  f.status = report::Status::ok;
  std::vector<std::string> texts;
  for (const auto& p : parts) {
    texts.push_back(p.text);
    if (report::severity(p.status) > report::severity(f.status)) {
      f.status = p.status;
      f.next = p.next;
    }
  }
  return texts;
}

}  // namespace icheck::rules
