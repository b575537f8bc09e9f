#include "report/status_grid.hpp"

#include "report/fit_lines.hpp"
#include "report/status_color.hpp"
#include "report/text_table.hpp"
#include "util/join.hpp"

#include <algorithm>
#include <array>

namespace icheck::report {
namespace {

constexpr std::array kLayers{Layer::env,    Layer::fabric, Layer::rdma_access, Layer::gpudirect,
                             Layer::nvlink, Layer::ucx,    Layer::nixl};

// The layers some pod has a finding at, in the transport's order.
std::vector<Layer> shown_layers(const std::vector<const Target*>& targets) {
  std::vector<Layer> layers;
  for (const Layer layer : kLayers) {
    if (std::any_of(targets.begin(), targets.end(), [&](const Target* t) {
          return t->kind == TargetKind::pod && worst_at(*t, layer);
        })) {
      layers.push_back(layer);
    }
  }
  return layers;
}

std::vector<const Target*> pods_of(const Report& report) {
  std::vector<const Target*> pods;
  for (const auto& t : report.targets) {
    if (t.kind == TargetKind::pod) {
      pods.push_back(&t);
    }
  }
  return pods;
}

std::string role_of(const Target& t) {
  return (t.role.empty() ? "-" : t.role) + (t.multinode.empty() ? "" : " " + t.multinode);
}

void add_statuses(std::vector<Cell>& row, const Target& t, const std::vector<Layer>& layers) {
  for (const Layer layer : layers) {
    const auto s = worst_at(t, layer);
    row.push_back(s ? Cell{std::string(to_string(*s)), status_sgr(*s)} : Cell{"-", ""});
  }
}

// One kind of pods alike: how many, their roles, the worst status of each layer (their names head
// the kind's table, in the same order).
std::vector<Cell> kind_row(const PodKind& kind, const std::vector<Layer>& layers,
                           const RenderOptions& o) {
  std::vector<Cell> row;
  if (o.all_namespaces) {
    row.push_back({kind.shown.namespace_.empty() ? "-" : kind.shown.namespace_, ""});
  }
  std::vector<std::string> roles;
  for (const auto* t : kind.pods) {
    if (std::find(roles.begin(), roles.end(), role_of(*t)) == roles.end()) {
      roles.push_back(role_of(*t));
    }
  }
  row.push_back({std::to_string(kind.pods.size()), ""});
  row.push_back({join(roles, ","), ""});
  add_statuses(row, kind.shown, layers);
  return row;
}

std::vector<Cell> grid_row(const Target& t, const std::vector<Layer>& layers,
                           const RenderOptions& o) {
  std::vector<Cell> row;
  if (o.all_namespaces) {
    row.push_back({t.namespace_.empty() ? "-" : t.namespace_, ""});
  }
  row.push_back({t.name, ""});
  row.push_back({role_of(t), ""});
  add_statuses(row, t, layers);
  return row;
}

std::vector<Cell> grid_heading(const std::vector<Layer>& layers, const RenderOptions& o,
                               bool kinds = false) {
  std::vector<Cell> row;
  if (o.all_namespaces) {
    row.push_back({"NAMESPACE", ""});
  }
  row.insert(row.end(), {{kinds ? "PODS" : "POD", ""}, {"ROLE", ""}});
  for (const Layer layer : layers) {
    std::string name(to_string(layer));
    std::transform(name.begin(), name.end(), name.begin(), [](char c) {
      return static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    });
    row.push_back({name, ""});
  }
  return row;
}

}  // namespace

std::optional<Status> worst_at(const Target& target, Layer layer) {
  std::optional<Status> worst;
  for (const auto& f : target.findings) {
    if (f.layer == layer && (!worst || severity(f.status) > severity(*worst))) {
      worst = f.status;
    }
  }
  return worst;
}

bool all_required_ok(const Target& target) {
  return std::all_of(target.findings.begin(), target.findings.end(), [](const Finding& f) {
    return f.status == Status::ok || (!f.required && f.status != Status::fail);
  });
}

bool every_check_ok(const Target& target) {
  return std::all_of(target.findings.begin(), target.findings.end(),
                     [](const Finding& f) { return f.status == Status::ok; });
}

std::string left_out_line(std::size_t every_ok, std::size_t required_ok, std::size_t width) {
  if (every_ok + required_ok == 0) {
    return {};
  }
  const auto pods = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " pod" : " pods"); };
  std::string text;
  if (every_ok > 0) {
    text = pods(every_ok) + (every_ok == 1 ? " has" : " have") + " every check ok";
  }
  if (required_ok > 0) {
    text += every_ok > 0 ? " and " + std::to_string(required_ok)
                         : pods(required_ok) + (required_ok == 1 ? " has" : " have");
    text += " every required check ok but an optional one skipped or warn (see the grid)";
  }
  text += ": their tables are left out (-o wide shows every table)";
  return (width == 0 ? text + "\n" : wrap_words(text, width, "", "")) + "\n";
}

std::size_t pod_count(const Report& report) {
  return static_cast<std::size_t>(
      std::count_if(report.targets.begin(), report.targets.end(),
                    [](const Target& t) { return t.kind == TargetKind::pod; }));
}

std::string status_grid(const Report& report, const RenderOptions& options) {
  const std::size_t pods = pod_count(report);
  if (pods < kGridPods) {
    return {};
  }
  const auto layers = shown_layers(pods_of(report));
  TextTable grid;
  if (!options.no_headers) {
    grid.add_row(grid_heading(layers, options));
  }
  for (const auto& t : report.targets) {
    if (t.kind == TargetKind::pod) {
      grid.add_row(grid_row(t, layers, options));
    }
  }
  return std::to_string(pods) + " pods, the worst status of each layer:\n" +
         grid.render(options.color) + "\n";
}

std::string kinds_grid(const std::vector<PodKind>& kinds, const RenderOptions& options) {
  std::vector<const Target*> pods;
  std::size_t pod_kinds = 0;
  bool alike = false;
  for (const auto& k : kinds) {
    if (k.shown.kind == TargetKind::pod) {
      pods.insert(pods.end(), k.pods.begin(), k.pods.end());
      ++pod_kinds;
      alike = alike || k.pods.size() > 1;
    }
  }
  if (pods.size() < kGridPods || pod_kinds < 2) {
    return {};
  }
  const auto layers = shown_layers(pods);
  TextTable grid;
  grid.limit_width(options.width);
  grid.add_row(grid_heading(layers, options, alike));
  for (const auto& k : kinds) {
    if (k.shown.kind == TargetKind::pod) {
      grid.add_row(alike ? kind_row(k, layers, options) : grid_row(k.shown, layers, options));
    }
  }
  const std::string what = std::to_string(pods.size()) + " pods" +
                           (alike ? " of " + std::to_string(pod_kinds) + " kinds" : "");
  return wrap_words(what + ", the worst status of each layer:", within(options.width), "", "") +
         grid.render(options.color) + "\n";
}

}  // namespace icheck::report

namespace icheck::report {
namespace {

std::vector<Cell> file_row(const Target& t) {
  std::size_t n[4] = {0, 0, 0, 0};
  for (const auto& f : t.findings) {
    ++n[static_cast<int>(f.status)];
  }
  const Status s = target_status(t);
  return {{t.name, ""},
          {std::string(to_string(s)), status_sgr(s)},
          {std::to_string(n[static_cast<int>(Status::ok)]), ""},
          {std::to_string(n[static_cast<int>(Status::warn)]), ""},
          {std::to_string(n[static_cast<int>(Status::fail)]), ""},
          {std::to_string(n[static_cast<int>(Status::skipped)]), ""}};
}

}  // namespace

std::string file_summary(const Report& report, const RenderOptions& options) {
  TextTable table;
  table.add_row(
      {{"FILE", ""}, {"STATUS", ""}, {"OK", ""}, {"WARN", ""}, {"FAIL", ""}, {"SKIPPED", ""}});
  std::size_t files = 0;
  for (const auto& t : report.targets) {
    if (is_file(t.kind)) {
      table.add_row(file_row(t));
      ++files;
    }
  }
  if (files < 2) {
    return {};
  }
  const bool wide = options.format == Format::wide;
  if (!wide) {
    table.limit_width(options.width);
  }
  const std::string what = std::to_string(files) + " files, the worst required status of each:";
  return (wide ? what + "\n" : wrap_words(what, within(options.width), "", "")) +
         table.render(options.color) + "\n";
}

}  // namespace icheck::report
