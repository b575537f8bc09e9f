#include "knowledge/evaluate.hpp"

#include "knowledge/version.hpp"

#include <algorithm>

namespace icheck::knowledge {
namespace {

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
    return c.regex && std::regex_search(value->begin(), value->end(), *c.regex);
  case Op::version:
    return version_in(*value, c.bounds);
  case Op::present:
    break;
  }
  return false;
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
