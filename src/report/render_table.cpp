// Human output: a heading, a pods x layers grid when there are many pods, one table per target
// (under a grid, only the pods with something against the verdict), then the verdict block.
#include "report/render.hpp"
#include "report/status_color.hpp"
#include "report/status_grid.hpp"
#include "report/text_table.hpp"
#include "report/verdict_block.hpp"
#include "util/join.hpp"

#include <algorithm>
#include <string>

namespace icheck::report {
namespace {

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
  head.push_back(
      {(t.role.empty() ? "-" : t.role) + (t.multinode.empty() ? "" : " " + t.multinode), ""});
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

}  // namespace

std::string render_table(const Report& report, const Verdict& verdict,
                         const RenderOptions& options) {
  const bool color = options.color;
  std::string out;
  if (auto h = heading(report); !h.empty()) {
    out += h + "\n\n";
  }
  const std::string grid = status_grid(report, options);
  // Under a grid, a pod with nothing against the verdict needs no table (-o wide keeps it).
  const auto left_out = [&](const Target& t) {
    return !grid.empty() && options.format != Format::wide && t.kind == TargetKind::pod &&
           all_required_ok(t);
  };
  const auto hidden = std::count_if(report.targets.begin(), report.targets.end(), left_out);
  out += grid;
  if (hidden > 0) {
    out += std::to_string(hidden) + (hidden == 1 ? " pod has" : " pods have") +
           " every required check ok: their tables are left out (-o wide shows every table)\n\n";
  }
  for (const auto& t : report.targets) {
    if (!left_out(t)) {
      out += target_block(t, options) + "\n";
    }
  }
  return out + verdict_block(report, verdict, {color, options.format == Format::wide});
}

}  // namespace icheck::report
