#include "report/status_grid.hpp"

#include "report/status_color.hpp"
#include "report/text_table.hpp"

#include <algorithm>
#include <array>

namespace icheck::report {
namespace {

constexpr std::array kLayers{Layer::env,    Layer::fabric, Layer::rdma_access, Layer::gpudirect,
                             Layer::nvlink, Layer::ucx,    Layer::nixl};

// The layers some pod has a finding at, in the transport's order.
std::vector<Layer> shown_layers(const Report& report) {
  std::vector<Layer> layers;
  for (const Layer layer : kLayers) {
    if (std::any_of(report.targets.begin(), report.targets.end(), [&](const Target& t) {
          return t.kind == TargetKind::pod && worst_at(t, layer);
        })) {
      layers.push_back(layer);
    }
  }
  return layers;
}

std::vector<Cell> grid_row(const Target& t, const std::vector<Layer>& layers,
                           const RenderOptions& o) {
  std::vector<Cell> row;
  if (o.all_namespaces) {
    row.push_back({t.namespace_.empty() ? "-" : t.namespace_, ""});
  }
  row.push_back({t.name, ""});
  row.push_back({t.role.empty() ? "-" : t.role, ""});
  for (const Layer layer : layers) {
    const auto s = worst_at(t, layer);
    row.push_back(s ? Cell{std::string(to_string(*s)), status_sgr(*s)} : Cell{"-", ""});
  }
  return row;
}

std::vector<Cell> grid_heading(const std::vector<Layer>& layers, const RenderOptions& o) {
  std::vector<Cell> row;
  if (o.all_namespaces) {
    row.push_back({"NAMESPACE", ""});
  }
  row.insert(row.end(), {{"POD", ""}, {"ROLE", ""}});
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

std::size_t pod_count(const Report& report) {
  return static_cast<std::size_t>(
      std::count_if(report.targets.begin(), report.targets.end(),
                    [](const Target& t) { return t.kind == TargetKind::pod; }));
}

std::string status_grid(const Report& report, const RenderOptions& options) {
  const std::size_t pods = pod_count(report);
  if (pods <= kGridPods) {
    return {};
  }
  const auto layers = shown_layers(report);
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

}  // namespace icheck::report
