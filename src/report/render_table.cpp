// Human output: a heading, a pods x layers grid when there are many pods, then one table per kind
// of pods alike (pod_kinds.hpp; -o wide: one per target; under a grid, only the kinds with
// something against the verdict), then the verdict block; with --no-headers only the check rows.
// In the default view every line fits the width, but a runnable command (fit_lines.hpp).
#include "report/fit_lines.hpp"
#include "report/pod_kinds.hpp"
#include "report/render.hpp"
#include "report/status_color.hpp"
#include "report/status_grid.hpp"
#include "report/text_table.hpp"
#include "report/transfer_matrix.hpp"
#include "report/verdict_block.hpp"
#include "util/join.hpp"

#include <algorithm>
#include <string>

namespace icheck::report {
namespace {

// The words joined with " · ", a new line where the next would pass the width.
std::string heading(const Report& r, std::size_t width) {
  std::vector<std::string> words;
  if (!r.context.empty()) {
    words.push_back("context " + r.context);
  }
  if (!r.namespace_.empty()) {
    words.push_back("namespace " + r.namespace_);
  }
  words.insert(words.end(), r.header.begin(), r.header.end());
  std::string out, line;
  for (const auto& w : words) {
    const std::string word = fit_cut(w, width);
    if (!line.empty() && display_width(line + " · " + word) > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " · ") + word;
  }
  return line.empty() ? out : out + line + "\n";
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
    head.push_back({(is_file(t.kind) ? "file " : "node ") + t.node, ""});
  }
  if (o.all_namespaces && !t.namespace_.empty()) {
    head.push_back({"namespace " + t.namespace_, ""});
  }
  if (!t.summary.empty()) {
    head.push_back({t.summary, ""});
  }
  title.add_row(std::move(head));
  if (o.format == Format::table) {
    title.limit_width(o.width);
  }
  return title.render(o.color);
}

// "4 pods alike  2 prefill, 2 decode  8x H100 ...", then their names, a few.
std::string kind_title(const PodKind& kind, const RenderOptions& o) {
  if (kind.pods.size() == 1) {
    return title_line(*kind.pods.front(), o);
  }
  const Target& t = kind.shown;
  TextTable title;
  std::vector<Cell> head{{std::to_string(kind.pods.size()) + " pods alike", "1"},
                         {role_counts(kind), ""}};
  if (o.all_namespaces && !t.namespace_.empty()) {
    head.push_back({"namespace " + t.namespace_, ""});
  }
  if (!t.summary.empty()) {
    head.push_back({t.summary, ""});
  }
  title.add_row(std::move(head));
  title.limit_width(o.width);
  std::vector<std::string> names;
  for (const auto* p : kind.pods) {
    names.push_back(p->name);
  }
  return title.render(o.color) + name_lines("pods", names, kFewNames, within(o.width));
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

std::string check_table(const Target& t, const RenderOptions& o) {
  TextTable table("  ");
  if (o.format == Format::table) {
    table.limit_width(o.width);
  }
  table.add_row(column_names(t, o));
  for (const auto& f : t.findings) {
    table.add_row(check_row(t, f, o));
  }
  return table.render(o.color);
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
  const bool wide = options.format == Format::wide;
  std::string out;
  if (auto h = heading(report, wide ? std::string::npos : within(options.width)); !h.empty()) {
    out += h + "\n";
  }
  const auto kinds = wide ? every_target(report) : pod_kinds(report);
  const std::string grid = wide ? status_grid(report, options) : kinds_grid(kinds, options);
  // Under a grid, a kind of pod with nothing against the verdict needs no table (-o wide keeps
  // them all).
  const auto left_out = [&](const PodKind& k) {
    return !grid.empty() && !wide && k.shown.kind == TargetKind::pod && all_required_ok(k.shown);
  };
  std::size_t every_ok = 0, required_ok = 0;
  for (const auto& k : kinds) {
    if (left_out(k)) {
      (every_check_ok(k.shown) ? every_ok : required_ok) += k.pods.size();
    }
  }
  out += grid + left_out_line(every_ok, required_ok, wide ? 0 : within(options.width));
  for (const auto& k : kinds) {
    if (!left_out(k)) {
      out += kind_title(k, options) + check_table(k.shown, options) + "\n";
    }
  }
  return out + file_summary(report, options) + render_matrices(report) +
         verdict_block(report, verdict,
                       {options.color, wide, wide ? kVerdictWidth : within(options.width)});
}

}  // namespace icheck::report
