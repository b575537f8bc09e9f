#include "rules/known/stack_facts.hpp"

#include "dynamo/framework.hpp"
#include "recipe/image_version.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <array>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <yaml-cpp/yaml.h>

namespace icheck::rules::known {
namespace {

using knowledge::FactMap;

std::string truth(bool b) {
  return b ? "true" : "false";
}

std::string kv_backend_of(const KvBackends& b) {
  const std::string lib = text::lower(b.library);
  if (lib == "nixl" || lib == "ucx" || lib == "mpi" || lib == "mooncake" || lib == "nccl")
    return lib;
  if (lib.find("mooncake") != std::string::npos)
    return "mooncake";
  if (lib.find("nccl") != std::string::npos)
    return "nccl";
  return "";  // UNREAD, or a connector outside the vocabulary: unknown
}

std::string framework_fact(dynamo::Framework f) {
  switch (f) {
  case dynamo::Framework::vllm:
    return "vllm";
  case dynamo::Framework::sglang:
    return "sglang";
  case dynamo::Framework::trtllm:
    return "trtllm";
  case dynamo::Framework::unknown:
    break;
  }
  return "";
}

// --kv-transfer-config '{"kv_connector": ..., "kv_connector_extra_config": {...}}'
void add_kv_transfer_config(FactMap& facts, const std::string& json) {
  boost::system::error_code ec;
  auto v = boost::json::parse(json, ec);
  if (ec || !v.is_object())
    return;
  facts.complete("engine.kv_transfer.");  // read whole: a key it lacks is known absent
  for (const auto& [key, value] : v.as_object()) {
    const std::string name(key);
    if (value.is_string()) {
      facts.set("engine.kv_transfer." + name, std::string(value.as_string()));
      if (name == "kv_connector")
        facts.set("engine.kv_connector", std::string(value.as_string()));
    } else if (value.is_bool()) {
      facts.set("engine.kv_transfer." + name, truth(value.as_bool()));
    } else if (value.is_number()) {
      facts.set("engine.kv_transfer." + name, boost::json::serialize(value));
    } else if (value.is_object()) {
      for (const auto& [k, x] : value.as_object())
        facts.set("engine.kv_transfer." + name + "." + std::string(k),
                  x.is_string() ? std::string(x.as_string()) : boost::json::serialize(x));
    }
  }
}

void add_flags(FactMap& facts, const std::vector<std::string>& words) {
  // Words may hold several shell words ("--a 1 --b"): split them again on blanks.
  std::vector<std::string> split;
  for (const auto& w : words) {
    if (w.starts_with("{") || w.starts_with("'{")) {  // a JSON value: one word
      split.push_back(w);
      continue;
    }
    for (auto part : text::split(w, ' '))
      if (!part.empty())
        split.push_back(std::string(part));
  }
  for (std::size_t i = 0; i < split.size(); ++i) {
    const auto& w = split[i];
    if (!w.starts_with("--") || w.size() < 3)
      continue;
    auto eq = w.find('=');
    std::string flag = w.substr(0, eq), value = "true";
    if (eq != std::string::npos)
      value = w.substr(eq + 1);
    else if (i + 1 < split.size() && !split[i + 1].starts_with("--"))
      value = split[++i];
    if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') &&
        value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    facts.set("engine.flag." + flag, value);
    if (flag == "--kv-transfer-config")
      add_kv_transfer_config(facts, value);
  }
}

void add_cache_transceiver(FactMap& facts, const std::string& yaml) {
  try {
    auto doc = YAML::Load(yaml);
    auto config = doc.IsMap() ? doc["cache_transceiver_config"] : YAML::Node();
    if (!config || !config.IsMap())
      return;
    for (const auto& kv : config)
      if (kv.second.IsScalar())
        facts.set("engine.cache_transceiver." + kv.first.Scalar(), kv.second.Scalar());
    facts.complete("engine.cache_transceiver.");
  } catch (const YAML::Exception&) {
  }
}

int active_ports(const probe::NodeFacts& node, std::string& link_layer) {
  int n = 0;
  for (const auto& d : node.sysfs_devices)
    for (const auto& p : d.ports) {
      if (p.state != probe::PortState::active)
        continue;
      ++n;
      if (link_layer.empty() && p.link_layer == probe::LinkLayer::infiniband)
        link_layer = "InfiniBand";
      if (link_layer.empty() && p.link_layer == probe::LinkLayer::ethernet)
        link_layer = "Ethernet";
    }
  return n;
}

// "true" where the pod's GPUs reach each other over NVLink (an NV# cell between two GPUs of
// nvidia-smi topo -m, or an active link in nvidia-smi nvlink -s), "false" where two or more GPUs
// were read and none does; "" (unknown) with one GPU or nothing read.
std::string nvlink_local(const probe::NodeFacts& node) {
  if (node.nvlink && !node.nvlink->gpus.empty())
    for (const auto& g : node.nvlink->gpus)
      for (const auto& l : g.links)
        if (l.active)
          return "true";
  if (!node.topo)
    return "";
  const auto gpus = node.topo->gpu_rows();
  if (gpus.size() < 2)
    return "";
  for (const auto* row : gpus)
    for (std::size_t c = 0; c < row->links.size() && c < node.topo->columns.size(); ++c)
      if (row->links[c].kind == probe::TopoLinkKind::nvlink)
        return "true";
  return "false";
}

std::string peermem(const probe::NodeFacts& node) {
  if (node.peer_memory.nvidia_peermem)
    return "nvidia_peermem";
  if (node.peer_memory.nv_peer_mem)
    return "nv_peer_mem";
  if (node.platform.efa_nv_peermem)
    return "efa_nv_peermem";
  if (!node.modules_read)
    return "";  // the module list was not read: unknown
  if (node.nvidia_driver.present && node.nvidia_driver.open_kernel_module)
    return "dmabuf";
  return node.nvidia_driver.present ? "none" : "";
}

bool is_efa(const probe::NodeFacts& node, const std::string& name) {
  const auto& efa = node.platform.efa_devices;
  return std::find(efa.begin(), efa.end(), name) != efa.end();
}

// The RDMA devices the pod can open (sysfs_devices once allocation moved the others out):
// rdma.non_efa_beside_efa, "true" where EFA devices sit beside others (mlx5 through a hostPath
// /dev/infiniband), which libfabric's efa provider fails on (aws-samples/aws-do-eks #63);
// rdma.unusable_devices, those whose node type is not a CA (1) or whose port link layer reads
// Unknown (not EFA); rdma.limited_pkey_devices, those with a port whose default P_Key lacks the
// full-membership bit (0x7fff). Every device set counts; unknown where allocation is unknown.
void add_rdma_devices(FactMap& facts, const probe::NodeFacts& node) {
  if (!node.sysfs_infiniband || !node.allocation_known)
    return;
  int non_efa = 0, unusable = 0, limited = 0, pkeys_read = 0;
  for (const auto& d : node.sysfs_devices) {
    const bool efa = is_efa(node, d.name);
    non_efa += efa ? 0 : 1;
    bool bad = !d.node_type.empty() && !d.node_type.starts_with("1:") && d.node_type != "CA";
    bool limited_here = false;
    for (const auto& p : d.ports) {
      bad = bad || (!efa && p.link_layer == probe::LinkLayer::unknown &&
                    text::lower(p.link_layer_text) == "unknown");
      if (p.pkey0) {
        ++pkeys_read;
        limited_here = limited_here || (*p.pkey0 != 0 && (*p.pkey0 & 0x8000u) == 0);
      }
    }
    unusable += bad ? 1 : 0;
    limited += limited_here ? 1 : 0;
  }
  facts.set("rdma.non_efa_beside_efa",
            truth(!node.platform.efa_devices.empty() && non_efa > 0 &&
                  non_efa < static_cast<int>(node.sysfs_devices.size())));
  facts.set("rdma.unusable_devices", std::to_string(unusable));
  if (pkeys_read > 0)
    facts.set("rdma.limited_pkey_devices", std::to_string(limited));
}

// kernel.config.CONFIG_X: "y" | "m" | "unset" where the whole config was read; unknown else.
void add_kernel_config(FactMap& facts, const probe::KernelConfig& config) {
  for (auto name : probe::kKernelConfigOptions)
    if (auto v = config.option(name))
      facts.set("kernel.config." + std::string(name), *v);
  if (config.memory_peers)
    facts.set("kernel.memory_peers", truth(*config.memory_peers));
}

}  // namespace

void add_env(FactMap& facts, const std::map<std::string, std::string>& env, bool complete) {
  for (const auto& [name, value] : env)
    facts.set("env." + name, value);
  if (complete)
    facts.complete("env.");
}

void add_engine(FactMap& facts, const std::vector<std::string>& command_line,
                const KvBackends& backends, const std::optional<std::string>& engine_config) {
  if (auto f = framework_fact(backends.framework); !f.empty())
    facts.set("engine.framework", f);
  if (backends.unknown.empty() && !backends.library_assumed) {
    if (auto lib = kv_backend_of(backends); !lib.empty())
      facts.set("engine.kv_backend", lib);
    if (backends.via_nixl()) {
      std::string joined;
      for (const auto& n : backends.names)
        joined += (joined.empty() ? "" : ",") + n;
      facts.set("engine.nixl_backends", joined);
    }
  }
  if (!command_line.empty()) {
    std::string line;
    for (const auto& w : command_line)
      line += (line.empty() ? "" : " ") + w;
    if (auto e = dynamo::entrypoint_of(line); !e.empty())
      facts.set("engine.entrypoint", e);
    add_flags(facts, command_line);
    facts.complete("engine.flag.");
  }
  if (engine_config)
    add_cache_transceiver(facts, *engine_config);
}

void add_pod(FactMap& facts, const PodNetwork& pod) {
  if (pod.host_network)
    facts.set("pod.hostNetwork", truth(*pod.host_network));
  if (pod.host_ipc)
    facts.set("pod.hostIPC", truth(*pod.host_ipc));
  if (pod.host_pid)
    facts.set("pod.hostPID", truth(*pod.host_pid));
  if (!pod.pod_ip.empty())
    facts.set("pod.podIP", pod.pod_ip);
  if (!pod.host_ip.empty())
    facts.set("pod.hostIP", pod.host_ip);
  if (!pod.node_internal_ip.empty())
    facts.set("node.internalIP", pod.node_internal_ip);
  if (!pod.cloud.empty())
    facts.set("platform.cloud", pod.cloud);
}

void add_node(FactMap& facts, const probe::NodeFacts& node) {
  if (!node.gpus.empty()) {
    facts.set("gpu.model", node.gpus.front().name);
    facts.set("gpu.count", std::to_string(node.gpus.size()));
  } else if (!node.platform.gpu_models.empty()) {
    facts.set("gpu.model", node.platform.gpu_models.front());
  }
  if (node.sysfs_infiniband) {
    std::string link_layer;
    const int nics = active_ports(node, link_layer);
    facts.set("nic.count", std::to_string(nics));
    // Every Active RDMA port serves two or more GPUs (8 on 2, 4 on 2, 8 on 4); unknown without
    // GPUs or an Active port.
    if (!node.gpus.empty() && nics > 0)
      facts.set("nic.shared_by_gpus",
                truth(node.gpus.size() >= 2 * static_cast<std::size_t>(nics)));
    if (!link_layer.empty())
      facts.set("fabric.link_layer", link_layer);
    facts.set("platform.efa", truth(!node.platform.efa_devices.empty()));
  }
  if (node.platform.fabric && !node.platform.fabric->gpus.empty()) {
    const auto& gpus = node.platform.fabric->gpus;
    facts.set("nvlink.multinode", truth(std::any_of(gpus.begin(), gpus.end(),
                                                    [](const auto& g) { return g.registered(); })));
  }
  if (auto local = nvlink_local(node); !local.empty())
    facts.set("nvlink.local", local);
  if (auto p = peermem(node); !p.empty())
    facts.set("peermem.module", p);
  if (!node.nvidia_driver.version.empty())
    facts.set("version.driver", node.nvidia_driver.version);
  if (!node.kernel.empty())
    facts.set("version.kernel", node.kernel);
  if (node.ucx_version && !node.ucx_version->version.empty())
    facts.set("version.ucx", node.ucx_version->version);
  if (node.ucx_version && node.ucx_version->enable_mt)
    facts.set("ucx.enable_mt", truth(*node.ucx_version->enable_mt));
  if (node.ucx_devices) {
    std::vector<std::string> names;
    std::string joined;
    for (const auto& t : node.ucx_devices->transports)
      if (!t.transport.empty() &&
          std::find(names.begin(), names.end(), t.transport) == names.end()) {
        names.push_back(t.transport);
        joined += (joined.empty() ? "" : ",") + t.transport;
      }
    facts.set("ucx.transports", joined);
  }
  add_kernel_config(facts, node.kernel_config);
  add_rdma_devices(facts, node);
}

void add_nixl(FactMap& facts, const probe::NixlFacts& nixl) {
  // The stack probe's dist-info reading comes first (the `nixl` wheel, each nixl-cuXX wheel);
  // the NIXL probe's one version (a wheel's METADATA or nixl-versions.txt) fills what it left.
  if (nixl.versions.nixl) {
    if (!facts.get("version.nixl"))
      facts.set("version.nixl", *nixl.versions.nixl);
    std::string wheel = text::lower(nixl.versions.nixl_package);
    std::replace(wheel.begin(), wheel.end(), '_', '-');
    if (wheel.starts_with("nixl-") && !facts.get("version." + wheel))
      facts.set("version." + wheel, *nixl.versions.nixl);
  }
  if (nixl.versions.ucx && !facts.get("version.ucx"))
    facts.set("version.ucx", *nixl.versions.ucx);
}

void add_stack(FactMap& facts, const probe::StackVersions& stack) {
  for (const auto& [lib, copies] : stack.copies) {
    if (copies.size() != 1)
      continue;  // disagreeing copies: said by the stack-versions finding
    std::string name = lib;
    if (lib == "nccl.wheel" || lib == "cuda.wheel") {
      name = lib.substr(0, lib.find('.'));
      if (stack.copies.contains(name))
        continue;  // the system library is the one found first
    }
    if (name == "dynamo-runtime") {
      if (stack.copies.contains("dynamo"))
        continue;
      name = "dynamo";
    }
    facts.set("version." + name, copies.begin()->first);
  }
  // The libnixl copies: how many, whether TRT-LLM's bundle is one, which one LD_LIBRARY_PATH
  // resolves first (known absent where it names none: the section was read whole).
  if (stack.read) {
    facts.set("nixl.lib_copies", std::to_string(stack.nixl_libs.size()));
    facts.set("nixl.trtllm_bundled",
              truth(std::any_of(stack.nixl_libs.begin(), stack.nixl_libs.end(), [](const auto& p) {
                return p.find("/tensorrt_llm/libs/nixl/") != std::string::npos;
              })));
    if (!stack.nixl_ld_first.empty())
      facts.set("nixl.ld_library_path_first", stack.nixl_ld_first);
  }
  // The `nixl` wheel is the NIXL version; a lone nixl-cuXX wheel stands for it.
  if (!stack.copies.contains("nixl")) {
    std::vector<std::string> wheels;
    for (const auto& [lib, copies] : stack.copies)
      if (lib.starts_with("nixl-cu") && copies.size() == 1)
        wheels.push_back(copies.begin()->first);
    if (wheels.size() == 1)
      facts.set("version.nixl", wheels.front());
  }
}

FactMap pod_facts(const probe::NodeFacts& node, const probe::NixlFacts& nixl,
                  const std::vector<std::string>& command_line, const KvBackends& backends,
                  const PodNetwork& network) {
  FactMap facts;
  if (node.whole_env)
    add_env(facts, *node.whole_env, node.script_complete);
  else
    add_env(facts, node.transport_env, false);
  add_stack(facts, node.stack);  // first: the NIXL probe fills only what it left
  add_node(facts, node);
  add_nixl(facts, nixl);
  std::optional<std::string> engine_config;
  if (nixl.engine_config)
    engine_config = nixl.engine_config->text;
  add_engine(facts, command_line, backends, engine_config);
  add_pod(facts, network);
  return facts;
}

FactMap service_facts(const recipe::Service& s) {
  FactMap facts;
  std::map<std::string, std::string> env;
  for (const auto& v : s.env)
    env[v.name] = v.is_reference ? "(" + v.value + ")" : recipe::shown(v);
  add_env(facts, env, s.env_from.empty());
  add_engine(facts, s.command_line, service_kv_backends(s), s.engine_config);
  if (auto v = recipe::image_version(s.image))
    facts.set("version." + v->first, v->second);
  PodNetwork network;
  network.host_ipc = s.host_ipc;
  network.host_pid = s.host_pid;
  add_pod(facts, network);
  return facts;
}

FactMap pair_facts(const FactMap& prefill, const FactMap& decode, std::optional<bool> same_node,
                   std::optional<bool> roce_v2_gid_index_differs) {
  FactMap out;
  out.merge(prefill, "prefill.");
  out.merge(decode, "decode.");
  if (same_node)
    out.set("pair.same_node", truth(*same_node));
  if (roce_v2_gid_index_differs)
    out.set("pair.roce_v2_gid_index_differs", truth(*roce_v2_gid_index_differs));
  return out;
}

bool provided_fact(std::string_view name) {
  for (auto prefix : {std::string_view("prefill."), std::string_view("decode.")})
    if (name.starts_with(prefix))
      return provided_fact(name.substr(prefix.size()));
  static constexpr std::string_view exact[] = {"engine.framework",
                                               "engine.entrypoint",
                                               "engine.kv_backend",
                                               "engine.nixl_backends",
                                               "engine.kv_connector",
                                               "pod.hostNetwork",
                                               "pod.hostIPC",
                                               "pod.hostPID",
                                               "pod.podIP",
                                               "pod.hostIP",
                                               "gpu.model",
                                               "gpu.count",
                                               "nic.count",
                                               "fabric.link_layer",
                                               "nvlink.multinode",
                                               "platform.efa",
                                               "peermem.module",
                                               "pair.same_node",
                                               "pair.roce_v2_gid_index_differs",
                                               "log.line",
                                               "log.container",
                                               "event.reason",
                                               "event.message",
                                               "event.type",
                                               "nvlink.local",
                                               "nic.shared_by_gpus",
                                               "node.internalIP",
                                               "platform.cloud",
                                               "kernel.memory_peers",
                                               "rdma.non_efa_beside_efa",
                                               "rdma.unusable_devices",
                                               "rdma.limited_pkey_devices",
                                               "nixl.lib_copies",
                                               "nixl.trtllm_bundled",
                                               "nixl.ld_library_path_first",
                                               "ucx.enable_mt",
                                               "ucx.transports"};
  if (std::find(std::begin(exact), std::end(exact), name) != std::end(exact))
    return true;
  static const std::array<std::string_view, 17> versions{
      "nixl",  "nixl-cu12", "nixl-cu13", "ucx",    "ucx.system",   "libfabric",
      "nccl",  "mooncake",  "vllm",      "sglang", "tensorrt_llm", "dynamo",
      "torch", "cuda",      "driver",    "kernel", "nixl-cu11"};
  if (name.starts_with("version."))
    return std::find(versions.begin(), versions.end(), name.substr(8)) != versions.end();
  if (name.starts_with("kernel.config."))
    return std::find(probe::kKernelConfigOptions.begin(), probe::kKernelConfigOptions.end(),
                     name.substr(14)) != probe::kKernelConfigOptions.end();
  for (std::string_view prefix :
       {"env.", "engine.flag.--", "engine.kv_transfer.", "engine.cache_transceiver."})
    if (name.starts_with(prefix) && name.size() > prefix.size())
      return true;
  return false;
}

}  // namespace icheck::rules::known
