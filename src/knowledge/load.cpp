#include "knowledge/load.hpp"

#include "knowledge/version.hpp"

#include <algorithm>
#include <re2/re2.h>
#include <set>
#include <stdexcept>
#include <yaml-cpp/yaml.h>

namespace icheck::knowledge {
namespace {

// A problem in a data file: thrown inside this file only, returned as an Error.
struct Bad : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const std::set<std::string, std::less<>> kRowKeys{"id",      "layer",   "status",  "check",
                                                  "engine",  "when",    "detail",  "next",
                                                  "sources", "failing", "healthy", "verified"};

std::string text(const YAML::Node& n, const std::string& key, bool required = true) {
  auto v = n[key];
  if (!v || v.IsNull()) {
    if (required)
      throw Bad("missing '" + key + "'");
    return {};
  }
  if (!v.IsScalar())
    throw Bad("'" + key + "' is not a string");
  return v.Scalar();
}

std::vector<std::string> strings(const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence())
    throw Bad("'" + what + "' is not a list");
  std::vector<std::string> out;
  for (const auto& v : n) {
    if (!v.IsScalar())
      throw Bad("'" + what + "' holds a value that is not a string");
    out.push_back(v.Scalar());
  }
  return out;
}

report::Layer layer(const std::string& s) {
  using report::Layer;
  for (auto l : {Layer::env, Layer::fabric, Layer::rdma_access, Layer::gpudirect, Layer::nvlink,
                 Layer::ucx, Layer::nixl})
    if (report::to_string(l) == s)
      return l;
  throw Bad("bad layer '" + s + "' (env, fabric, rdma-access, gpudirect, nvlink, ucx, nixl)");
}

report::Status status(const std::string& s) {
  if (s == "warn")
    return report::Status::warn;
  if (s == "fail")
    return report::Status::fail;
  throw Bad("bad status '" + s + "' (warn or fail: a row never makes a green)");
}

Op op_named(const std::string& s) {
  for (auto op : {Op::equals, Op::in, Op::not_in, Op::matches, Op::imatches, Op::not_matches,
                  Op::not_imatches, Op::version, Op::present})
    if (to_string(op) == s)
      return op;
  throw Bad("unknown operator '" + s + "'");
}

bool is_pattern(Op op) {
  return op == Op::matches || op == Op::imatches || op == Op::not_matches || op == Op::not_imatches;
}

// RE2 (linear time, no look-around or back-references): a pattern it cannot compile is a bad row.
void compile(Condition& c, const std::string& pattern) {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_case_sensitive(c.op != Op::imatches && c.op != Op::not_imatches);
  auto re = std::make_shared<const RE2>(pattern, options);
  if (!re->ok())
    throw Bad("bad regex '" + pattern +
              "' (RE2 syntax: no look-around, no back-references): " + re->error());
  c.regex = std::move(re);
}

Condition condition(const YAML::Node& n) {
  if (!n.IsMap())
    throw Bad("a 'when' entry is not a map");
  Condition c;
  c.fact = text(n, "fact");
  if (c.fact.empty() || c.fact.find(' ') != std::string::npos)
    throw Bad("bad fact name '" + c.fact + "'");
  if (n.size() != 2)
    throw Bad("condition on " + c.fact + ": one operator per condition");
  for (const auto& kv : n) {
    auto key = kv.first.Scalar();
    if (key == "fact")
      continue;
    c.op = op_named(key);
    const auto& v = kv.second;
    if (c.op == Op::in || c.op == Op::not_in) {
      c.values = strings(v, key);
      if (c.values.empty())
        throw Bad("condition on " + c.fact + ": empty list");
    } else if (!v.IsScalar()) {
      throw Bad("condition on " + c.fact + ": '" + key + "' wants one value");
    } else {
      c.values = {v.Scalar()};
    }
    c.text = key + " " +
             (c.values.size() == 1 && c.op != Op::in && c.op != Op::not_in
                  ? c.values.front()
                  : "[" +
                        [&] {
                          std::string s;
                          for (const auto& x : c.values)
                            s += (s.empty() ? "" : ", ") + x;
                          return s;
                        }() +
                        "]");
  }
  if (is_pattern(c.op))
    compile(c, c.values.front());
  if (c.op == Op::version) {
    auto bounds = parse_version_range(c.values.front());
    if (!bounds)
      throw Bad("condition on " + c.fact + ": bad version range '" + c.values.front() + "'");
    c.bounds = *bounds;
  }
  if (c.op == Op::present) {
    const auto& v = c.values.front();
    if (v != "true" && v != "false")
      throw Bad("condition on " + c.fact + ": present is true or false");
    c.present = v == "true";
  }
  return c;
}

Example example(const YAML::Node& n, const std::string& key) {
  auto v = n[key];
  if (!v || !v.IsMap())
    throw Bad("missing '" + key + "' example (a map of facts)");
  Example out;
  for (const auto& kv : v) {
    if (!kv.second.IsScalar())
      throw Bad("'" + key + "' example: " + kv.first.Scalar() + " is not a string");
    out[kv.first.Scalar()] = kv.second.Scalar();
  }
  if (out.empty())
    throw Bad("empty '" + key + "' example");
  return out;
}

bool kebab(const std::string& id) {
  return !id.empty() && id.front() != '-' && id.back() != '-' &&
         std::all_of(id.begin(), id.end(), [](char ch) {
           return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-';
         });
}

Row row(const YAML::Node& n, Kind kind) {
  if (!n.IsMap())
    throw Bad("a row is not a map");
  Row r;
  r.kind = kind;
  r.id = text(n, "id");
  try {
    if (!kebab(r.id))
      throw Bad("id is not kebab-case");
    for (const auto& kv : n)
      if (!kRowKeys.contains(kv.first.Scalar()))
        throw Bad("unknown key '" + kv.first.Scalar() + "'");
    r.layer = layer(text(n, "layer"));
    r.status = status(text(n, "status"));
    r.check = text(n, "check");
    if (r.check.empty() || r.check.find_first_of(" \t") != std::string::npos)
      throw Bad("check '" + r.check + "' is empty or has blanks");
    r.engine = text(n, "engine", kind == Kind::signature);
    if (!n["when"] || !n["when"].IsSequence() || n["when"].size() == 0)
      throw Bad("missing 'when'");
    for (const auto& c : n["when"])
      r.when.push_back(condition(c));
    r.detail = text(n, "detail");
    r.next = text(n, "next");
    if (!n["sources"])
      throw Bad("missing sources");
    r.sources = strings(n["sources"], "sources");
    if (r.sources.empty())
      throw Bad("missing sources");
    r.failing = example(n, "failing");
    r.healthy = example(n, "healthy");
    r.verified = text(n, "verified", false);
    if (r.verified.starts_with("unverified") && r.status == report::Status::fail)
      throw Bad("an unverified row never fails (status: warn)");
  } catch (const Bad& e) {
    throw Bad("row " + r.id + ": " + e.what());
  }
  return r;
}

}  // namespace

std::string_view to_string(Kind k) {
  return k == Kind::trouble ? "trouble" : "signature";
}

std::string_view to_string(Op op) {
  switch (op) {
  case Op::equals:
    return "equals";
  case Op::in:
    return "in";
  case Op::not_in:
    return "not_in";
  case Op::matches:
    return "matches";
  case Op::imatches:
    return "imatches";
  case Op::not_matches:
    return "not_matches";
  case Op::not_imatches:
    return "not_imatches";
  case Op::version:
    return "version";
  case Op::present:
    return "present";
  }
  return "?";
}

Expected<std::vector<Row>> load_file(const DataFile& file) {
  const std::string name(file.name);
  try {
    auto doc = YAML::Load(std::string(file.text));
    if (!doc.IsMap())
      throw Bad("not a map with 'kind' and 'rows'");
    auto k = text(doc, "kind");
    if (k != "trouble" && k != "signature")
      throw Bad("bad kind '" + k + "' (trouble or signature)");
    auto rows_node = doc["rows"];
    if (!rows_node || !rows_node.IsSequence())
      throw Bad("missing 'rows' (a list)");
    std::vector<Row> out;
    for (const auto& n : rows_node) {
      out.push_back(row(n, k == "trouble" ? Kind::trouble : Kind::signature));
      out.back().file = name;
    }
    return out;
  } catch (const YAML::Exception& e) {
    return Error{name + ": " + e.what()};
  } catch (const Bad& e) {
    return Error{name + ": " + e.what()};
  }
}

Expected<std::vector<Row>> load_files(const std::vector<DataFile>& files) {
  std::vector<Row> out;
  std::set<std::string, std::less<>> ids;
  for (const auto& f : files) {
    auto rows = load_file(f);
    if (!rows)
      return rows.error();
    for (auto& r : *rows) {
      if (!ids.insert(r.id).second)
        return Error{std::string(f.name) + ": duplicate id " + r.id};
      out.push_back(std::move(r));
    }
  }
  return out;
}

const std::vector<Row>& rows() {
  static const std::vector<Row> all = [] {
    auto loaded = load_files(embedded_files());
    if (!loaded)
      throw std::runtime_error("knowledge data: " + loaded.error().message);
    return std::move(loaded).value();
  }();
  return all;
}

namespace {
std::vector<Row> of_kind(Kind k) {
  std::vector<Row> out;
  for (const auto& r : rows())
    if (r.kind == k)
      out.push_back(r);
  return out;
}
}  // namespace

const std::vector<Row>& trouble_rows() {
  static const std::vector<Row> out = of_kind(Kind::trouble);
  return out;
}

const std::vector<Row>& signature_rows() {
  static const std::vector<Row> out = of_kind(Kind::signature);
  return out;
}

}  // namespace icheck::knowledge
