#pragma once
// The one evaluator: every row whose conditions all hold over a fact map is a hit, its detail
// and next with their {fact} placeholders filled. Pure, no I/O. Unknown never concludes: a
// condition over a fact that is not known does not hold (present: false holds only where the
// fact's prefix was read whole).

#include "knowledge/facts.hpp"
#include "knowledge/row.hpp"

#include <string>
#include <vector>

namespace icheck::knowledge {

struct Hit {
  const Row* row = nullptr;
  std::string detail;
  std::string next;
};

bool holds(const Condition& c, const FactMap& facts);
bool fires(const Row& row, const FactMap& facts);

// "{env.UCX_TLS}" -> the fact's value; a fact not known reads "(unknown)".
std::string fill(std::string_view text, const FactMap& facts);

std::vector<Hit> evaluate(const std::vector<Row>& rows, const FactMap& facts);

}  // namespace icheck::knowledge
