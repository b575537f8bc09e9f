#include "probe/facts.hpp"

#include <algorithm>

namespace icheck::probe {

const TopoRow* Topology::row(const std::string& label_or_name) const {
  for (const auto& r : rows)
    if (r.label == label_or_name || r.name == label_or_name) return &r;
  return nullptr;
}

const TopoLink* Topology::link(const std::string& from, const std::string& to) const {
  const TopoRow* r = row(from);
  if (r == nullptr) return nullptr;
  // The target is a column: its printed label, or a NIC name the legend maps to a label
  // (a truncated table can have the column without the row).
  std::string label = to;
  for (const auto& [nic, name] : nic_legend)
    if (name == to) label = nic;
  auto it = std::find(columns.begin(), columns.end(), label);
  if (it == columns.end()) return nullptr;
  auto index = static_cast<std::size_t>(it - columns.begin());
  return index < r->links.size() ? &r->links[index] : nullptr;
}

std::vector<const TopoRow*> Topology::gpu_rows() const {
  std::vector<const TopoRow*> out;
  for (const auto& r : rows)
    if (r.is_gpu) out.push_back(&r);
  return out;
}

std::vector<const TopoRow*> Topology::nic_rows() const {
  std::vector<const TopoRow*> out;
  for (const auto& r : rows)
    if (!r.is_gpu) out.push_back(&r);
  return out;
}

std::size_t NodeFacts::uverbs_nodes() const {
  return static_cast<std::size_t>(
      std::count_if(dev_infiniband.begin(), dev_infiniband.end(),
                    [](const std::string& e) { return e.starts_with("uverbs"); }));
}

const Tool* NodeFacts::tool(const std::string& name) const {
  auto it = tools.find(name);
  return it == tools.end() ? nullptr : &it->second;
}

}  // namespace icheck::probe
