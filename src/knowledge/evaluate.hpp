#pragma once
// The one evaluator: every row whose conditions all hold over a fact map is a hit, its detail
// and next with their {fact} placeholders filled. Pure, no I/O. Unknown never concludes: a
// condition over a fact that is not known does not hold (present: false holds only where the
// fact's prefix was read whole).

#include "knowledge/facts.hpp"
#include "knowledge/row.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::knowledge {

struct Hit {
  const Row* row = nullptr;
  std::string detail;
  std::string next;
};

// A value longer than this is judged by its first kMaxJudged bytes (a 40 KB UCX_TLS, a NIXL
// version line of any length): outside text is bounded before it is judged.
inline constexpr std::size_t kMaxJudged = 4096;

bool holds(const Condition& c, const FactMap& facts);

// Where a matches/imatches condition finds its pattern in `text` (the leftmost match), to show
// the line around it; nullopt for other operators or no match.
struct Span {
  std::size_t at = 0;
  std::size_t length = 0;
};
std::optional<Span> match_span(const Condition& c, std::string_view text);
bool fires(const Row& row, const FactMap& facts);

// "{env.UCX_TLS}" -> the fact's value; a fact not known reads "(unknown)".
std::string fill(std::string_view text, const FactMap& facts);

std::vector<Hit> evaluate(const std::vector<Row>& rows, const FactMap& facts);

}  // namespace icheck::knowledge
