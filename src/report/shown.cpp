#include "report/shown.hpp"

#include "outside/mask.hpp"
#include "outside/text.hpp"

#include <boost/json.hpp>

namespace icheck::report {
namespace {

// `most`: errors and limitations quote the outside (a file's documents, kubectl's words), and
// stay one line each; cut after masking, so a cut secret is masked whole first.
std::string shown(std::string_view text, Medium medium, std::size_t most = std::string::npos) {
  const std::string masked = outside::at_most(outside::mask_secrets(text), most);
  return medium == Medium::terminal ? outside::terminal_safe(masked) : outside::valid_utf8(masked);
}

void show(std::string& text, Medium medium) {
  text = shown(text, medium);
}

void show(std::vector<std::string>& list, Medium medium) {
  for (auto& text : list)
    show(text, medium);
}

void show_bounded(std::string& text, Medium medium) {
  text = shown(text, medium, outside::kMaxShownLine);
}

void show_bounded(std::vector<std::string>& list, Medium medium) {
  for (auto& text : list)
    show_bounded(text, medium);
}

boost::json::value shown_json(const boost::json::value& value, Medium medium) {
  switch (value.kind()) {
  case boost::json::kind::string:
    return boost::json::string(shown(value.get_string(), medium));
  case boost::json::kind::array: {
    boost::json::array out;
    for (const auto& item : value.get_array())
      out.push_back(shown_json(item, medium));
    return out;
  }
  case boost::json::kind::object: {
    boost::json::object out;
    for (const auto& [key, item] : value.get_object())
      out[shown(key, medium)] = shown_json(item, medium);
    return out;
  }
  default:
    return value;
  }
}

void show(Target& target, Medium medium) {
  for (auto* text : {&target.name, &target.namespace_, &target.role, &target.multinode,
                     &target.node, &target.summary})
    show(*text, medium);
  for (auto& f : target.findings) {
    for (auto* text : {&f.name, &f.id})
      show(*text, medium);
    // A check says one line: a detail or next step that quotes a pod's output (a python
    // traceback, a tool's error) is cut like an error is.
    for (auto* text : {&f.detail, &f.next})
      show_bounded(*text, medium);
  }
  target.facts = shown_json(target.facts, medium).as_object();
}

}  // namespace

Report shown_report(const Report& report, Medium medium) {
  Report out = report;
  for (auto* text : {&out.mode, &out.context, &out.namespace_, &out.interrupted})
    show(*text, medium);
  show_bounded(out.stopped, medium);
  for (auto* list : {&out.header, &out.next})
    show(*list, medium);
  for (auto* list : {&out.limitations, &out.errors})
    show_bounded(*list, medium);
  for (auto& target : out.targets)
    show(target, medium);
  out.transfer_node_matrix = shown_json(out.transfer_node_matrix, medium).as_object();
  return out;
}

Verdict shown_verdict(const Verdict& verdict, Medium medium) {
  Verdict out = verdict;
  for (auto* text : {&out.scope, &out.check, &out.transfer})
    show(*text, medium);
  for (auto* text : {&out.summary, &out.headline, &out.detail})
    show_bounded(*text, medium);
  show(out.affected, medium);
  show(out.next, medium);
  for (auto& step : out.steps) {
    show(step.text, medium);
    show(step.pods, medium);
  }
  show_bounded(out.limitations, medium);
  return out;
}

}  // namespace icheck::report
