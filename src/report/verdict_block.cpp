#include "report/verdict_block.hpp"

#include "report/status_color.hpp"
#include "report/text_table.hpp"

#include <algorithm>

namespace icheck::report {
namespace {

constexpr std::size_t kLabelWidth = 7;  // "  next   ": the labels under the VERDICT line

std::string label_prefix(const std::string& label) {
  return "  " + label +
         std::string(label.size() < kLabelWidth ? kLabelWidth - label.size() : 1, ' ');
}

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
  return kinds[0] == TargetKind::pod        ? "pods"
         : kinds[0] == TargetKind::manifest ? "files"
                                            : "hosts";
}

// "VERDICT  blocked  at rdma-access on 1 of 4 pods (devices: HCAs in sysfs but …)", and the
// whole reason when it had to be cut. A long error is cut without one: the error lines above
// show it whole.
std::string status_line(const Verdict& v, bool color, std::string& why) {
  const std::string status(to_string(v.status));
  const std::size_t used = display_width("VERDICT  " + status + "  " + v.headline);
  std::string headline = v.headline;
  std::string tail;
  if (v.check.empty() && used > kVerdictWidth) {  // e.g. a long error, shown whole above
    headline = fit_words(v.headline, display_width(v.headline) + kVerdictWidth - used);
    why = v.status == VerdictStatus::error ? "" : v.headline;
  } else if (!v.check.empty()) {
    const std::string reason = v.check + ": " + v.detail;
    const std::size_t room = used + 3 < kVerdictWidth ? kVerdictWidth - used - 3 : 0;
    const std::string fitted = fit_words(reason, room);
    if (!fitted.empty()) {
      tail = " (" + fitted + ")";
    }
    if (fitted != reason) {
      why = reason;
    }
  }
  return colored("VERDICT", "1", color) + "  " + colored(status, verdict_sgr(v.status), color) +
         "  " + headline + tail + "\n";
}

}  // namespace

std::string name_lines(const std::string& label, const std::vector<std::string>& names,
                       std::size_t most, std::size_t width) {
  const auto kept = std::min(std::max<std::size_t>(most, 1), names.size());
  std::vector<std::string> items(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(kept));
  if (names.size() > items.size()) {
    items.back() += " and " + std::to_string(names.size() - items.size()) + " more";
  }
  const std::string first = label_prefix(label);
  const std::string indent(first.size(), ' ');
  std::string out;
  std::string line = first;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string item = items[i] + (i + 1 < items.size() ? "," : "");
    if (line.size() > first.size() && display_width(line) + 1 + display_width(item) > width) {
      out += line + "\n";
      line = indent;
    }
    line += (line.size() > first.size() ? " " : "") + item;
  }
  return out + line + "\n";
}

std::string verdict_block(const Report& report, const Verdict& v, const VerdictBlockOptions& o) {
  std::string out;
  for (const auto& e : report.errors) {
    out += "error    " + e + "\n";
  }
  std::string why;
  out += status_line(v, o.color, why);
  if (!why.empty()) {
    out += label_prefix("why") + why + "\n";
  }
  if (!v.affected.empty()) {
    out += name_lines(names_label(report, v), v.affected, o.every_name ? v.affected.size() : 12,
                      kVerdictWidth);
  }
  if (!v.transfer.empty()) {
    out += label_prefix("pairs") + v.transfer + "\n";
  }
  for (const auto& n : v.next) {
    out += label_prefix("next") + n + "\n";
  }
  for (const auto& l : v.limitations) {
    out += label_prefix("limit") + l + "\n";
  }
  return out;
}

}  // namespace icheck::report
