// Machine output: the versioned document of DESIGN.md, built once as JSON; YAML is emitted
// from the same value so both formats always carry the same shape.
#include "report/render.hpp"

#include <boost/json.hpp>

namespace icheck::report {
namespace {

boost::json::array strings(const std::vector<std::string>& list) {
  boost::json::array a;
  for (const auto& s : list) {
    a.emplace_back(s);
  }
  return a;
}

boost::json::object check_json(const Finding& f) {
  boost::json::object o{{"id", check_id(f)},           {"name", f.name},
                        {"layer", to_string(f.layer)}, {"status", to_string(f.status)},
                        {"detail", f.detail},          {"required", f.required}};
  if (!f.next.empty()) {
    o["next"] = f.next;
  }
  if (f.is_transfer) {
    o["transfer"] = true;
  }
  if (f.is_observed_traffic) {
    o["observedTraffic"] = true;
  }
  if (!f.row.empty()) {
    o["row"] = f.row;
  }
  return o;
}

boost::json::object target_json(const Target& t) {
  boost::json::array checks;
  for (const auto& f : t.findings) {
    checks.emplace_back(check_json(f));
  }
  boost::json::object out{{"name", t.name},
                          {"namespace", t.namespace_},
                          {"kind", to_string(t.kind)},
                          {"role", t.role},
                          {"node", t.node},
                          {"summary", t.summary},
                          {"status", to_string(target_status(t))},
                          {"checks", std::move(checks)},
                          {"facts", t.facts}};
  if (!t.multinode.empty())
    out["multinode"] = t.multinode;  // leader or worker of a multinode worker
  return out;
}

boost::json::object verdict_json(const Verdict& v) {
  boost::json::object o{{"status", to_string(v.status)}, {"summary", v.summary}};
  if (v.layer) {
    o["layer"] = to_string(*v.layer);
  }
  if (!v.scope.empty()) {  // the summary in parts, for tools that want one of them
    o["scope"] = v.scope;
    o["check"] = v.check;
    o["detail"] = v.detail;
    o["affected"] = strings(v.affected);
  }
  if (!v.transfer.empty()) {
    o["transfer"] = v.transfer;
  }
  o["next"] = strings(v.next);
  o["limitations"] = strings(v.limitations);
  return o;
}

boost::json::object counts_json(const Report& r) {
  std::int64_t n[4] = {0, 0, 0, 0};
  for (const auto& t : r.targets) {
    for (const auto& f : t.findings) {
      ++n[static_cast<int>(f.status)];
    }
  }
  return {{"ok", n[0]},
          {"warn", n[1]},
          {"fail", n[2]},
          {"skipped", n[3]},
          {"targets", static_cast<std::int64_t>(r.targets.size())}};
}

}  // namespace

boost::json::value to_json(const Report& report, const Verdict& verdict) {
  boost::json::array targets;
  for (const auto& t : report.targets) {
    targets.emplace_back(target_json(t));
  }
  boost::json::object doc{{"apiVersion", "dynamo-icheck/v1"},
                          {"kind", "Report"},
                          {"mode", report.mode},
                          {"context", report.context},
                          {"namespace", report.namespace_},
                          {"targets", std::move(targets)},
                          {"verdict", verdict_json(verdict)},
                          {"counts", counts_json(report)},
                          {"errors", strings(report.errors)}};
  if (!report.transfer_node_matrix.empty())
    doc["transferNodeMatrix"] = report.transfer_node_matrix;
  return doc;
}

}  // namespace icheck::report
