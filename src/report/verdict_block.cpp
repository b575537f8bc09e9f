#include "report/verdict_block.hpp"

#include "report/fit_lines.hpp"
#include "report/status_color.hpp"
#include "report/text_table.hpp"
#include "util/join.hpp"

#include <algorithm>

namespace icheck::report {
namespace {

// What the affected targets are, for the label of their list.
std::string names_label(const Report& report, const Verdict& v) {
  std::vector<TargetKind> kinds;
  for (const auto& t : report.targets) {
    if (std::find(v.affected.begin(), v.affected.end(), t.name) != v.affected.end() &&
        std::find(kinds.begin(), kinds.end(), t.kind) == kinds.end()) {
      kinds.push_back(t.kind);
    }
  }
  if (kinds.size() != 1) {
    return "targets";
  }
  return kinds[0] == TargetKind::pod ? "pods" : is_file(kinds[0]) ? "files" : "hosts";
}

// "VERDICT  blocked  at rdma-access on 1 of 4 pods (devices: HCAs in sysfs but …)", and the
// whole reason when it had to be cut. A long error is cut without one: the error lines above
// show it whole.
std::string status_line(const Verdict& v, bool color, std::size_t width, std::string& why) {
  const std::string status(to_string(v.status));
  const std::size_t used = display_width("VERDICT  " + status + "  " + v.headline);
  std::string headline = v.headline;
  std::string tail;
  if (used > width) {  // e.g. a long error, shown whole above
    const std::size_t fixed = used - display_width(v.headline);
    headline = fit_cut(v.headline, width > fixed ? width - fixed : 0);
    why = v.status == VerdictStatus::error || !v.check.empty() ? "" : v.headline;
  }
  if (!v.check.empty()) {
    const std::string reason = v.check + ": " + v.detail;
    const std::size_t room = used + 3 < width ? width - used - 3 : 0;
    const std::string fitted = fit_words(reason, room);
    if (!fitted.empty()) {
      tail = " (" + fitted + ")";
    }
    if (fitted != reason || headline != v.headline) {
      why = reason;
    }
  }
  return colored("VERDICT", "1", color) + "  " + colored(status, verdict_sgr(v.status), color) +
         "  " + headline + tail + "\n";
}

}  // namespace

std::string name_lines(const std::string& label, const std::vector<std::string>& names,
                       std::size_t most, std::size_t width) {
  const auto kept = names.size() <= most + 1 ? names.size() : std::max<std::size_t>(most, 1);
  std::vector<std::string> items(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(kept));
  if (names.size() > items.size()) {
    items.back() += " and " + std::to_string(names.size() - items.size()) + " more";
  }
  const std::string first = label_prefix(label);
  const std::string indent(first.size(), ' ');
  std::string out;
  std::string line = first;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string item = fit_cut(items[i] + (i + 1 < items.size() ? "," : ""),
                                     width > indent.size() ? width - indent.size() : 1);
    if (line.size() > first.size() && display_width(line) + 1 + display_width(item) > width) {
      out += line + "\n";
      line = indent;
    }
    line += (line.size() > first.size() ? " " : "") + item;
  }
  return out + line + "\n";
}

namespace {

// "on each of 4 pods (a, b and 2 more), e.g. for the first: STEP" where the step names each
// pod's own names; the step alone where it reads the same for every pod.
std::string step_text(const NextStep& step) {
  if (!step.per_pod || step.pods.size() < 2) {
    return step.text;
  }
  return "on each of " + std::to_string(step.pods.size()) + " pods (" + join_first(step.pods, 2) +
         "), e.g. for the first: " + step.text;
}

// The default view: kMostSteps `next` entries at most, each within the width but its command;
// where there are more, the last entry says how many more -o wide and JSON list.
std::string step_lines(const Verdict& v, std::size_t width) {
  std::string out;
  const std::size_t shown = v.steps.size() <= kMostSteps ? v.steps.size() : kMostSteps - 1;
  for (std::size_t i = 0; i < shown; ++i) {
    out += labelled_lines("next", step_text(v.steps[i]), width);
  }
  if (v.steps.size() > shown) {
    const std::size_t more = v.steps.size() - shown;
    out += labelled_lines(
        "next", "and " + std::to_string(more) + " more next steps (-o wide or -o json lists them)",
        width);
  }
  return out;
}

}  // namespace

std::string verdict_block(const Report& report, const Verdict& v, const VerdictBlockOptions& o) {
  const std::size_t width = o.width;
  std::string out;
  for (const auto& e : report.errors) {
    out += wrap_words(e, width, "error    ", std::string(9, ' '));
  }
  std::string why;
  out += status_line(v, o.color, width, why);
  if (!why.empty()) {
    out += labelled_lines("why", why, width);
  }
  if (!v.affected.empty()) {
    out += name_lines(names_label(report, v), v.affected,
                      o.every_name ? v.affected.size() : kFewNames, width);
  }
  if (!v.transfer.empty()) {
    out += labelled_lines("pairs", v.transfer, width);
  }
  if (o.every_name) {  // -o wide: every next command as it is, one a line
    for (const auto& n : v.next) {
      out += label_prefix("next") + n + "\n";
    }
  } else {
    out += step_lines(v, width);
  }
  for (const auto& l : v.limitations) {
    out += labelled_lines("limit", l, width);
  }
  return out;
}

}  // namespace icheck::report
