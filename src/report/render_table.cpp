// Human output: a heading, a pods x layers grid when there are many pods, one table per target
// (under a grid, only the pods with something against the verdict), then the verdict block;
// with --no-headers only the check rows.
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
  if (o.format == Format::wide || o.no_headers) {
    cells.push_back({heading ? "TARGET" : t.name, ""});
  }
  return cells;
}

std::string title_line(const Target& t, const RenderOptions& o) {
  TextTable title;
  std::vector<Cell> head{{t.name, "1"}};
  head.push_back(
      {(t.role.empty() ? "-" : t.role) + (t.multinode.empty() ? "" : " " + t.multinode), ""});
  if (!t.node.empty()) {
    head.push_back({(t.kind == TargetKind::manifest ? "file " : "node ") + t.node, ""});
  }
  if (o.all_namespaces && !t.namespace_.empty()) {
    head.push_back({"namespace " + t.namespace_, ""});
  }
  if (!t.summary.empty()) {
    head.push_back({t.summary, ""});
  }
  title.add_row(std::move(head));
  return title.render(o.color);
}

std::vector<Cell> column_names(const Target& t, const RenderOptions& o) {
  std::vector<Cell> columns = row_prefix(t, o, true);
  columns.insert(columns.end(), {{"LAYER", ""}, {"CHECK", ""}, {"STATUS", ""}, {"DETAIL", ""}});
  if (o.format == Format::wide) {
    columns.push_back({"NEXT", ""});
  }
  return columns;
}

// Rows a script reads (-o wide, --no-headers) name the check by its id, a blank-free word.
std::vector<Cell> check_row(const Target& t, const Finding& f, const RenderOptions& o) {
  const bool wide = o.format == Format::wide;
  std::vector<Cell> row = row_prefix(t, o, false);
  row.insert(row.end(), {{std::string(to_string(f.layer)), ""},
                         {wide || o.no_headers ? check_id(f) : f.name, ""},
                         {std::string(to_string(f.status)), status_sgr(f.status)},
                         {f.detail, ""}});
  if (wide) {
    row.push_back({f.next.empty() ? "-" : f.next, ""});
  }
  return row;
}

std::string target_block(const Target& t, const RenderOptions& o) {
  TextTable table("  ");
  if (o.format == Format::table) {
    table.limit_width(o.width);
  }
  table.add_row(column_names(t, o));
  for (const auto& f : t.findings) {
    table.add_row(check_row(t, f, o));
  }
  return title_line(t, o) + table.render(o.color);
}

// --no-headers: the check rows alone, every target's in one aligned table, each starting with
// its target, as kubectl's --no-headers prints only data rows for a script to read.
std::string data_rows(const Report& report, const RenderOptions& options) {
  TextTable table;
  for (const auto& t : report.targets) {
    for (const auto& f : t.findings) {
      table.add_row(check_row(t, f, options));
    }
  }
  return table.render(options.color);
}

}  // namespace

std::string render_table(const Report& report, const Verdict& verdict,
                         const RenderOptions& options) {
  if (options.no_headers) {
    return data_rows(report, options);
  }
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
  const auto every_ok =
      std::count_if(report.targets.begin(), report.targets.end(),
                    [&](const Target& t) { return left_out(t) && every_check_ok(t); });
  out += grid + left_out_line(static_cast<std::size_t>(every_ok),
                              static_cast<std::size_t>(hidden - every_ok));
  for (const auto& t : report.targets) {
    if (!left_out(t)) {
      out += target_block(t, options) + "\n";
    }
  }
  return out + file_summary(report, options) +
         verdict_block(report, verdict, {color, options.format == Format::wide});
}

}  // namespace icheck::report
