// node_facts_json: the typed facts of one target for `-o json|yaml` (camelCase, stable keys).
#include "probe/parsers.hpp"
#include "rules/fabric/link_json.hpp"
#include "rules/gpudirect/vm_rules.hpp"
#include "rules/node/node.hpp"
#include "rules/node/node_view.hpp"
#include "rules/node/platform_json.hpp"
#include "rules/nvlink/gpu_rails.hpp"
#include "rules/ucx/ucx_view.hpp"

#include <boost/json.hpp>

namespace icheck::rules {
namespace {

namespace json = boost::json;

json::value optional_int(const std::optional<int>& v) { return v ? json::value(*v) : json::value(nullptr); }

json::object port_json(const probe::IbPort& p) {
  return {{"port", p.port},
          {"state", std::string(probe::to_string(p.state))},
          {"physState", std::string(probe::to_string(p.phys_state))},
          {"rateGbps", p.rate_gbps ? json::value(*p.rate_gbps) : json::value(nullptr)},
          {"linkLayer", std::string(probe::to_string(p.link_layer))},
          {"expectedGbps", p.expected_gbps ? json::value(*p.expected_gbps) : json::value(nullptr)}};
}

json::array hcas_json(const std::vector<probe::IbDevice>& devices) {
  json::array out;
  for (const auto& d : devices) {
    json::array ports;
    for (const auto& p : d.ports) ports.push_back(port_json(p));
    out.push_back(json::object{{"name", d.name},
                               {"pciAddress", d.pci_address},
                               {"model", d.model},
                               {"boardId", d.board_id},
                               {"firmware", d.fw},
                               {"numaNode", optional_int(d.numa_node)},
                               {"ports", std::move(ports)}});
  }
  return out;
}

json::value limit_json(const std::optional<probe::LimitValue>& v) {
  if (!v) return nullptr;
  if (v->unlimited) return "unlimited";
  return v->bytes;
}

json::object memlock_json(const probe::Memlock& m) {
  auto eff = m.soft ? m.soft : m.ulimit_l;
  return {{"soft", limit_json(m.soft)}, {"hard", limit_json(m.hard)}, {"unlimited", eff && eff->unlimited}};
}

// The modules the library loaded and those beside it that it did not (null: not asked).
json::value ucx_modules_json(const probe::UcxLibFacts& lib) {
  if (!lib.answered() || lib.module_dir.empty())
    return nullptr;
  json::array loaded, present;
  for (const auto& m : lib.modules_loaded)
    loaded.push_back(json::string(m));
  for (const auto& m : lib.modules_present)
    present.push_back(json::string(m));
  return json::object{{"dir", json::string(lib.module_dir)},
                      {"loaded", std::move(loaded)},
                      {"notLoaded", std::move(present)}};
}

json::object ucx_json(const probe::NodeFacts& f) {
  json::array tls;
  if (f.ucx_devices)
    for (const auto& t : f.ucx_devices->transports) tls.push_back(json::string(t.transport + "/" + t.device));
  json::value cuda = nullptr;
  if (f.ucx_devices) {
    cuda = node::ucx_gpu_memory(f).confirmed;
  }
  return {{"version", f.ucx_version ? json::value(f.ucx_version->version) : json::value(nullptr)},
          {"transports", std::move(tls)},
          {"cudaMemory", cuda},
          {"source", f.ucx_source.empty() ? json::value(nullptr) : json::value(f.ucx_source)},
          {"modules", ucx_modules_json(f.ucx_lib)}};
}

json::array gpus_json(const std::vector<probe::Gpu>& gpus) {
  json::array out;
  for (const auto& g : gpus) out.push_back(json::object{{"index", g.index}, {"name", g.name}});
  return out;
}

json::object env_json(const std::map<std::string, std::string>& env) {
  json::object out;
  for (const auto& [k, v] : env) out[k] = v;
  return out;
}

const std::vector<probe::IbDevice>& devices(const probe::NodeFacts& f) { return *node::rdma_devices(f).list; }

}  // namespace

boost::json::object node_facts_json(const probe::NodeFacts& f) {
  json::array dev;
  for (const auto& e : f.dev_infiniband) dev.push_back(json::string(e));
  const auto& pm = f.peer_memory;
  const auto& g = f.gdrcopy;
  return {
      {"hostname", f.hostname},
      {"kernel", f.kernel},
      {"hcas", hcas_json(devices(f))},
      {"unallocatedHcas", hcas_json(f.unallocated_devices)},
      {"devInfiniband", std::move(dev)},
      {"memlock", memlock_json(f.memlock)},
      {"capIpcLock", f.cap_ipc_lock ? json::value(*f.cap_ipc_lock) : json::value(nullptr)},
      {"peerMemory",
       json::object{{"nvMemVersion",
                     pm.nv_mem_version ? json::value(*pm.nv_mem_version) : json::value(nullptr)},
                    {"nvidiaPeermem", pm.nvidia_peermem},
                    {"nvPeerMem", pm.nv_peer_mem}}},
      {"nvidiaDriver", json::object{{"version", f.nvidia_driver.version},
                                    {"openKernelModule", f.nvidia_driver.open_kernel_module}}},
      {"gdrcopy", json::object{{"devGdrdrv", g.dev_gdrdrv},
                               {"procDevicesMajor", optional_int(g.proc_devices_major)},
                               {"module", g.module}}},
      {"gpus", gpus_json(f.gpus)},
      {"ucx", ucx_json(f)},
      {"transportEnv", env_json(f.transport_env)},
      {"platform", platform_facts_json(f.platform)},
      {"links", link_facts_json(f)},
      {"vm", node::vm_facts_json(f.vm)},
      {"nearestNics", node::nearest_nics_json(f)},
  };
}

}  // namespace icheck::rules
