#include "knowledge/evaluate.hpp"

#include "knowledge/version.hpp"

#include <algorithm>
#include <re2/re2.h>

namespace icheck::knowledge {
namespace {

// The part of a fact's value that is judged (DESIGN.md: outside text is bounded before judging).
std::string_view judged(std::string_view value) {
  return value.substr(0, kMaxJudged);
}

bool found(const Condition& c, std::string_view value) {
  return c.regex && RE2::PartialMatch(judged(value), *c.regex);
}

bool one_of(const std::vector<std::string>& values, std::string_view v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

}  // namespace

bool holds(const Condition& c, const FactMap& facts) {
  if (c.op == Op::present)
    return c.present ? facts.get(c.fact).has_value() : facts.known_absent(c.fact);
  auto value = facts.get(c.fact);
  if (!value)
    return false;
  switch (c.op) {
  case Op::equals:
    return !c.values.empty() && *value == c.values.front();
  case Op::in:
    return one_of(c.values, *value);
  case Op::not_in:
    return !one_of(c.values, *value);
  case Op::matches:
  case Op::imatches:
    return found(c, *value);
  case Op::not_matches:
  case Op::not_imatches:
    return c.regex && !found(c, *value);
  case Op::version:
    return version_in(judged(*value), c.bounds);
  case Op::present:
    break;
  }
  return false;
}

std::optional<Span> match_span(const Condition& c, std::string_view text) {
  if (!c.regex || (c.op != Op::matches && c.op != Op::imatches))
    return std::nullopt;
  const auto body = judged(text);
  re2::StringPiece whole;
  if (!c.regex->Match(body, 0, body.size(), RE2::UNANCHORED, &whole, 1))
    return std::nullopt;
  return Span{static_cast<std::size_t>(whole.data() - body.data()), whole.size()};
}

bool fires(const Row& row, const FactMap& facts) {
  return !row.when.empty() && std::all_of(row.when.begin(), row.when.end(),
                                          [&](const Condition& c) { return holds(c, facts); });
}

std::string fill(std::string_view text, const FactMap& facts) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    auto open = text.find('{', i);
    auto close = open == std::string_view::npos ? open : text.find('}', open);
    if (close == std::string_view::npos)
      break;
    auto name = text.substr(open + 1, close - open - 1);
    out.append(text.substr(i, open - i));
    if (name.empty() || name.find(' ') != std::string_view::npos) {
      out.append(text.substr(open, close - open + 1));  // not a placeholder: "{a b}" as written
    } else {
      auto value = facts.get(name);
      out.append(value ? std::string(*value) : std::string("(unknown)"));
    }
    i = close + 1;
  }
  out.append(text.substr(std::min(i, text.size())));
  return out;
}

std::vector<Hit> evaluate(const std::vector<Row>& rows, const FactMap& facts) {
  std::vector<Hit> out;
  for (const auto& row : rows)
    if (fires(row, facts))
      out.push_back({&row, fill(row.detail, facts), fill(row.next, facts)});
  return out;
}

}  // namespace icheck::knowledge
