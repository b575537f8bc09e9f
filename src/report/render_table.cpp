// Human output: a heading, one table per target, then the verdict block.
#include "report/render.hpp"
#include "report/text_table.hpp"

#include <string>
#include "util/join.hpp"

namespace icheck::report {
namespace {

std::string status_sgr(Status s) {
  switch (s) {
  case Status::ok: return "32";
  case Status::warn: return "33";
  case Status::fail: return "31;1";
  case Status::skipped: return "36";
  }
  return "";
}

std::string verdict_sgr(VerdictStatus v) {
  switch (v) {
  case VerdictStatus::confirmed:
  case VerdictStatus::surface_ok: return "32;1";
  case VerdictStatus::unconfirmed: return "33;1";
  case VerdictStatus::blocked:
  case VerdictStatus::error: return "31;1";
  }
  return "";
}

std::string heading(const Report& r) {
  std::vector<std::string> words;
  if (!r.context.empty()) {
    words.push_back("context " + r.context);
  }
  if (!r.namespace_.empty()) {
    words.push_back("namespace " + r.namespace_);
  }
  words.insert(words.end(), r.header.begin(), r.header.end());
  return join(words, " · ");
}

// -o wide rows start with the pod's name and -A rows with its namespace, so a grep of one row
// still says where it came from.
std::vector<Cell> row_prefix(const Target& t, const RenderOptions& o, bool heading) {
  std::vector<Cell> cells;
  if (o.all_namespaces) {
    cells.push_back({heading ? "NAMESPACE" : (t.namespace_.empty() ? "-" : t.namespace_), ""});
  }
  if (o.format == Format::wide) {
    cells.push_back({heading ? "TARGET" : t.name, ""});
  }
  return cells;
}

std::string target_block(const Target& t, const RenderOptions& o) {
  const bool wide = o.format == Format::wide;
  const bool color = o.color;
  TextTable title;
  std::vector<Cell> head{{t.name, "1"}};
  head.push_back({t.role.empty() ? "-" : t.role, ""});
  if (!t.node.empty()) {
    head.push_back({(t.kind == TargetKind::manifest ? "file " : "node ") + t.node, ""});
  }
  if (!t.summary.empty()) {
    head.push_back({t.summary, ""});
  }
  title.add_row(std::move(head));

  TextTable table("  ");
  std::vector<Cell> columns = row_prefix(t, o, true);
  columns.insert(columns.end(), {{"LAYER", ""}, {"CHECK", ""}, {"STATUS", ""}, {"DETAIL", ""}});
  if (wide) {
    columns.push_back({"NEXT", ""});
  }
  if (!o.no_headers) {
    table.add_row(std::move(columns));
  }
  for (const auto& f : t.findings) {
    std::vector<Cell> row = row_prefix(t, o, false);
    row.insert(row.end(), {{std::string(to_string(f.layer)), ""},
                           {f.name, ""},
                           {std::string(to_string(f.status)), status_sgr(f.status)},
                           {f.detail, ""}});
    if (wide) {
      row.push_back({f.next.empty() ? "-" : f.next, ""});
    }
    table.add_row(std::move(row));
  }
  return title.render(color) + table.render(color);
}

std::string verdict_block(const Report& r, const Verdict& v, bool color) {
  std::string out;
  for (const auto& e : r.errors) {
    out += "error    " + e + "\n";
  }
  out += colored("VERDICT", "1", color) + "  " +
         colored(std::string(to_string(v.status)), verdict_sgr(v.status), color) + "  " +
         v.summary + "\n";
  for (const auto& n : v.next) {
    out += "  next   " + n + "\n";
  }
  for (const auto& l : v.limitations) {
    out += "  limit  " + l + "\n";
  }
  return out;
}

}  // namespace

std::string render_table(const Report& report, const Verdict& verdict,
                         const RenderOptions& options) {
  const bool color = options.color;
  std::string out;
  if (auto h = heading(report); !h.empty()) {
    out += h + "\n\n";
  }
  for (const auto& t : report.targets) {
    out += target_block(t, options) + "\n";
  }
  return out + verdict_block(report, verdict, color);
}

}  // namespace icheck::report
