// The platform facts for `-o json|yaml` (camelCase keys): what the platform checks judged.
#include "rules/node/platform_json.hpp"

namespace icheck::rules {
namespace {

namespace json = boost::json;

json::value opt(const std::optional<int>& v) {
  return v ? json::value(*v) : json::value(nullptr);
}
json::value opt(const std::optional<double>& v) {
  return v ? json::value(*v) : json::value(nullptr);
}

json::array strings(const std::vector<std::string>& v) {
  json::array out;
  for (const auto& s : v)
    out.push_back(json::string(s));
  return out;
}

json::value fabric_json(const std::optional<probe::FabricInfo>& f) {
  if (!f)
    return nullptr;
  json::array gpus;
  for (const auto& g : f->gpus)
    gpus.push_back(json::object{{"gpu", g.gpu},
                                {"state", g.state},
                                {"status", g.status},
                                {"cliqueId", g.clique_id},
                                {"clusterUuid", g.cluster_uuid},
                                {"registered", g.registered()}});
  return json::object{{"gpus", std::move(gpus)}, {"error", f->error}};
}

json::array pcie_json(const std::vector<probe::PciLink>& links) {
  json::array out;
  for (const auto& l : links)
    out.push_back(json::object{{"kind", l.kind},
                               {"name", l.name},
                               {"address", l.address},
                               {"width", opt(l.width)},
                               {"maxWidth", opt(l.max_width)},
                               {"speedGts", opt(l.speed_gts)},
                               {"maxSpeedGts", opt(l.max_speed_gts)},
                               {"iommuGroupType", l.iommu_type}});
  return out;
}

json::array workers_json(const std::vector<probe::WorkerProcess>& workers) {
  json::array out;
  for (const auto& w : workers) {
    json::value soft = nullptr;
    if (w.memlock.soft)
      soft =
          w.memlock.soft->unlimited ? json::value("unlimited") : json::value(w.memlock.soft->bytes);
    out.push_back(
        json::object{{"pid", w.pid},
                     {"module", w.module},
                     {"comm", w.comm},
                     {"memlockSoft", soft},
                     {"capIpcLock", w.cap_eff ? json::value(probe::has_cap_ipc_lock(*w.cap_eff))
                                              : json::value(nullptr)}});
  }
  return out;
}

} // namespace

boost::json::object platform_facts_json(const probe::PlatformFacts& p) {
  json::value fi = p.fi_info_efa ? json::value(*p.fi_info_efa) : json::value(nullptr);
  return {{"imexChannels", strings(p.imex_channels)},
          {"gpuFabric", fabric_json(p.fabric)},
          {"pcie", pcie_json(p.pci)},
          {"iommu",
           json::object{{"cmdline", p.iommu.cmdline_setting}, {"units", strings(p.iommu.units)}}},
          {"efa", json::object{{"devices", strings(p.efa_devices)},
                               {"fiInfo", fi},
                               {"efaNvPeermem", p.efa_nv_peermem}}},
          {"kvWorkers", workers_json(p.workers)}};
}

} // namespace icheck::rules
