#include "probe/parsers.hpp"
#include "util/text.hpp"

#include <cctype>

namespace icheck::probe {
namespace {

TopoLink link_of(std::string_view cell) {
  TopoLink link;
  link.text = text::trim(cell);
  const auto& t = link.text;
  if (t == "X") link.kind = TopoLinkKind::self;
  else if (t == "PIX") link.kind = TopoLinkKind::pix;
  else if (t == "PXB") link.kind = TopoLinkKind::pxb;
  else if (t == "PHB") link.kind = TopoLinkKind::phb;
  else if (t == "NODE") link.kind = TopoLinkKind::node;
  else if (t == "SYS") link.kind = TopoLinkKind::sys;
  else if (t == "SOC") link.kind = TopoLinkKind::soc;
  else if (t == "PSB") link.kind = TopoLinkKind::psb;
  else if (t.starts_with("NV"))
    if (auto n = text::to_int(std::string_view(t).substr(2)); n && *n > 0) {  // not NV-1, NV0
      link.kind = TopoLinkKind::nvlink;
      link.nvlinks = static_cast<int>(*n);
    }
  return link;
}

// Header words re-joined: "CPU Affinity", "NUMA Affinity", "GPU NUMA ID" are one column each.
struct Header {
  std::vector<std::string> devices;
  std::vector<std::string> affinity;  // in printed order
};

Header header_of(std::string_view line) {
  Header h;
  auto w = text::words(line);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i] == "CPU" && i + 1 < w.size() && w[i + 1] == "Affinity") {
      h.affinity.emplace_back("CPU Affinity"), ++i;
    } else if (w[i] == "NUMA" && i + 1 < w.size() && w[i + 1] == "Affinity") {
      h.affinity.emplace_back("NUMA Affinity"), ++i;
    } else if (w[i] == "GPU" && i + 2 < w.size() && w[i + 1] == "NUMA" && w[i + 2] == "ID") {
      h.affinity.emplace_back("GPU NUMA ID"), i += 2;
    } else if (h.affinity.empty()) {
      h.devices.emplace_back(w[i]);
    }
  }
  return h;
}

// The header is the first line whose first word is GPU0 and whose second is not the self cell.
bool is_header(std::string_view line) {
  auto w = text::words(line);
  return w.size() >= 2 && w[0] == "GPU0" && w[1] != "X";
}

void set_affinity(TopoRow& row, const std::string& column, std::string_view value) {
  if (column == "CPU Affinity") row.cpu_affinity = value;
  else if (column == "NUMA Affinity") row.numa_affinity = value;
  else if (column == "GPU NUMA ID") row.gpu_numa_id = value;
}

// TAB-separated rows keep empty cells; between NUMA Affinity and GPU NUMA ID GPU rows have
// two TABs, so GPU NUMA ID is the last field.
void tab_affinity(TopoRow& row, const Header& h, const std::vector<std::string_view>& f) {
  std::size_t at = 1 + h.devices.size();
  for (std::size_t i = 0; i < h.affinity.size(); ++i) {
    if (h.affinity[i] == "GPU NUMA ID") {
      if (f.size() > at) set_affinity(row, h.affinity[i], text::trim(f.back()));
    } else if (at + i < f.size()) {
      set_affinity(row, h.affinity[i], text::trim(f[at + i]));
    }
  }
}

// Space-aligned pastes lose empty cells: fill GPU NUMA ID from the last word, the rest in order.
void space_affinity(TopoRow& row, const Header& h, std::vector<std::string_view> rest) {
  std::vector<std::string> columns = h.affinity;
  bool short_row = rest.size() < columns.size();
  if (short_row && !rest.empty() && columns.back() == "GPU NUMA ID") {
    set_affinity(row, "GPU NUMA ID", rest.back());
    rest.pop_back();
    columns.pop_back();
  }
  for (std::size_t i = 0; i < rest.size() && i < columns.size(); ++i) set_affinity(row, columns[i], rest[i]);
}

std::optional<TopoRow> row_of(std::string_view line, const Header& h) {
  auto w = text::words(line);
  if (w.empty()) return std::nullopt;
  bool known = false;
  for (const auto& d : h.devices) known = known || d == w[0];
  if (!known || w.size() < 1 + h.devices.size()) return std::nullopt;
  TopoRow row;
  row.label = w[0];
  row.name = row.label;
  row.is_gpu = row.label.starts_with("GPU");
  if (line.find('\t') != std::string_view::npos) {
    auto f = text::split(line, '\t');
    if (f.size() < 1 + h.devices.size()) return std::nullopt;
    for (std::size_t i = 0; i < h.devices.size(); ++i) row.links.push_back(link_of(f[1 + i]));
    if (row.is_gpu) tab_affinity(row, h, f);
  } else {
    for (std::size_t i = 0; i < h.devices.size(); ++i) row.links.push_back(link_of(w[1 + i]));
    if (row.is_gpu)
      space_affinity(row, h, {w.begin() + static_cast<long>(1 + h.devices.size()), w.end()});
  }
  return row;
}

// "  NIC0: mlx5_1"
bool legend_entry(Topology& topo, std::string_view line) {
  auto kv = text::key_value(line);
  if (!kv || !kv->first.starts_with("NIC") || !text::to_int(kv->first.substr(3))) return false;
  topo.nic_legend[std::string(kv->first)] = kv->second;
  return true;
}

}  // namespace

Topology parse_nvidia_smi_topo(std::string_view out) {
  Topology topo;
  std::optional<Header> header;
  bool in_nic_legend = false;
  for (auto raw : text::lines(out)) {
    if (!header) {
      if (is_header(raw)) {
        header = header_of(raw);
        topo.columns = header->devices;
        for (const auto& a : header->affinity) {
          topo.has_numa_affinity = topo.has_numa_affinity || a == "NUMA Affinity";
          topo.has_gpu_numa_id = topo.has_gpu_numa_id || a == "GPU NUMA ID";
        }
      }
      continue;
    }
    auto line = text::trim(raw);
    if (line.starts_with("NIC Legend")) in_nic_legend = true;
    if (in_nic_legend) {
      legend_entry(topo, line);
      continue;
    }
    if (line.starts_with("SOC") && text::contains(line, "=")) topo.legacy_soc = true;
    if (auto row = row_of(raw, *header)) topo.rows.push_back(std::move(*row));
  }
  for (auto& row : topo.rows) {
    if (auto it = topo.nic_legend.find(row.label); it != topo.nic_legend.end()) row.name = it->second;
    for (const auto& l : row.links) topo.legacy_soc = topo.legacy_soc || l.kind == TopoLinkKind::soc;
  }
  if (!header) topo.error = "no topology matrix header (GPU0 ...) found";
  return topo;
}

}  // namespace icheck::probe
