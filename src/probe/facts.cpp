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
  const TopoRow* c = row(to);
  if (r == nullptr || c == nullptr) return nullptr;
  // Columns carry the labels as printed; find the column of the target row's label.
  auto it = std::find(columns.begin(), columns.end(), c->label);
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

const Tool* NodeFacts::tool(const std::string& name) const {
  auto it = tools.find(name);
  return it == tools.end() ? nullptr : &it->second;
}

}  // namespace icheck::probe
