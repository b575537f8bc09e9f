#pragma once
// One row of knowledge (docs/knowledge.md): known trouble over the facts of a recipe service, a
// pod or a pair, or a log signature over one line or event. Rows are data
// (src/knowledge/data/*.yaml, compiled in); load.hpp reads and validates them.

#include "report/model.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace re2 {
class RE2;
}

namespace icheck::knowledge {

enum class Kind { trouble, signature };

enum class Op {
  equals,
  in,
  not_in,
  matches,
  imatches,
  not_matches,
  not_imatches,
  version,
  present
};

// One comparator of a `version:` condition: ">=1.3.0" is {">=", {1, 3, 0}}.
struct VersionBound {
  std::string op;  // >= > <= < == !=
  std::vector<long long> numbers;
};

struct Condition {
  std::string fact;
  Op op = Op::equals;
  std::vector<std::string> values;   // equals: one; in/not_in: the list; matches: the pattern
  std::vector<VersionBound> bounds;  // version
  bool present = true;               // present
  // matches/imatches/not_matches/not_imatches: compiled once, at load, by RE2 (linear time: the
  // text judged comes from outside, DESIGN.md).
  std::shared_ptr<const re2::RE2> regex;
  std::string text;  // the operator and value as written, for the docs and errors
};

using Example = std::map<std::string, std::string>;

struct Row {
  std::string id;
  Kind kind = Kind::trouble;
  report::Layer layer = report::Layer::env;
  report::Status status = report::Status::warn;  // warn | fail: a row never makes a green
  std::string check;
  std::string engine;  // who prints the line (signatures); optional on trouble rows
  std::vector<Condition> when;
  std::string detail;  // may hold {fact} placeholders
  std::string next;
  std::vector<std::string> sources;
  Example failing;
  Example healthy;
  // Where the row was checked against the primary source: "owner/repo@tag:path" or a release
  // note's URL; "unverified: why" where it could not be (such a row only warns). Optional.
  std::string verified;
  std::string file;  // the data file it came from, for errors and the docs
};

std::string_view to_string(Kind k);
std::string_view to_string(Op op);

}  // namespace icheck::knowledge
