// rdma-access: can this pod use the RDMA devices? Device nodes, a verbs provider, memlock.
#include "dynamo/transport_vars.hpp"
#include "probe/parsers.hpp"
#include "rules/fabric/fabric_pod.hpp"
#include "rules/node/node_layers.hpp"

namespace icheck::rules::node {
namespace {

using probe::VerbsError;
using report::Layer;
using report::Status;

constexpr std::uint64_t kib = 1024;
constexpr std::uint64_t mib = 1024 * kib;

std::vector<std::string> device_names(const NodeView& v) {
  std::vector<std::string> out;
  for (const auto& d : *v.devices) out.push_back(d.name);
  return out;
}

std::vector<std::string> uverbs(const NodeView& v) {
  std::vector<std::string> out;
  for (const auto& e : v.facts.dev_infiniband)
    if (e.starts_with("uverbs")) out.push_back(e);
  return out;
}

report::Finding device_nodes(const NodeView& v) {
  auto names = device_names(v);
  auto nodes = uverbs(v);
  if (cut_before(v.facts, "dev_infiniband"))
    return finding(Layer::rdma_access, "devices", Status::skipped,
                   "the probe's output was cut before /dev/infiniband was listed: device nodes unknown", "rerun the check");
  if (names.empty())
    return finding(Layer::rdma_access, "devices", Status::skipped, "no HCA in sysfs: no RDMA device to open");
  std::string hcas = std::to_string(names.size()) + " HCA" + (names.size() == 1 ? "" : "s") + " in " + v.source + " (" +
                     name_range(names) + ")";
  if (nodes.empty()) {
    std::string where = v.facts.dev_infiniband_present ? "/dev/infiniband has no uverbs*" : "no /dev/infiniband";
    std::string next = v.ctx.local ? "modprobe ib_uverbs (the verbs device nodes are missing)"
                                   : "resources.limits[\"rdma/ib\"]: 1 (the rdma/* resource your RDMA device plugin "
                                     "advertises: kubectl get node <node> -o jsonpath='{.status.allocatable}')";
    return finding(Layer::rdma_access, "devices", Status::fail,
                   hcas + " but " + where +
                       ": RDMA device not mounted into the pod: request an rdma/* resource or the device plugin",
                   next);
  }
  std::string seen = name_range(nodes) + " visible in the pod";
  if (nodes.size() < names.size())
    return finding(Layer::rdma_access, "devices", Status::warn,
                   seen + " for " + hcas + ": only the allocated devices are usable; " +
                       std::string(dynamo::kUcxNetDevicesVar) + " must name them",
                   "ls -l /sys/class/infiniband_verbs/*/ibdev (which HCA each uverbs opens)");
  if (auto others = unallocated_names(v.facts); !others.empty())
    seen += " for this pod's " + hcas + "; " + name_range(others) + " in sysfs are not allocated to it";
  return finding(Layer::rdma_access, "devices", Status::ok, seen);
}

std::string verbs_cause(const probe::VerbsInfo& vi, bool have_uverbs) {
  switch (vi.error) {
    case VerbsError::no_provider: return "no userspace verbs provider (libmlx5 etc.) in the image";
    case VerbsError::no_config_dir: return "libibverbs has no provider config (/etc/libibverbs.d missing)";
    case VerbsError::abi_mismatch: return "provider and kernel driver ABI mismatch";
    case VerbsError::open_failed: return "every device failed to open (permissions or device cgroup)";
    default:
      return have_uverbs ? "likely a missing provider or an ABI mismatch"
                         : "the pod has no /dev/infiniband/uverbs* to open";
  }
}

std::string verbs_next(VerbsError e) {
  if (e == VerbsError::abi_mismatch)
    return "use an image whose rdma-core matches the node's RDMA driver (or the host MOFED's libraries)";
  if (e == VerbsError::open_failed) return "ls -l /dev/infiniband (uverbs* must be crw-rw-rw- inside the pod)";
  return "install the verbs providers in the image (apt-get install ibverbs-providers / rdma-core)";
}

const probe::Tool* verbs_tool(const NodeView& v) {
  for (const char* name : {"ibv_devinfo", "ibv_devices"})
    if (const auto* t = v.facts.tool(name); t && t->found) return t;
  return nullptr;
}

std::optional<int> verbs_count(const NodeView& v) {
  if (v.facts.verbs.device_count) return v.facts.verbs.device_count;
  return v.facts.ibv_devices_count;
}

std::optional<report::Finding> verbs_provider(const NodeView& v) {
  std::size_t sysfs = v.facts.sysfs_devices.size();
  if (sysfs == 0) return std::nullopt;
  const auto* tool = verbs_tool(v);
  if (tool == nullptr && not_read(v.facts, "ibv_devinfo") && not_read(v.facts, "ibv_devices"))
    return not_read_finding(Layer::rdma_access, "verbs", "ibv_devinfo");
  if (tool == nullptr)
    return finding(Layer::rdma_access, "verbs", Status::skipped,
                   "ibv_devinfo not in the image: cannot tell whether a verbs provider opens the HCAs",
                   "ibv_devinfo -l (package ibverbs-utils), from the worker image or a debug container");
  if (tool->timed_out) return finding(Layer::rdma_access, "verbs", Status::fail, "ibv_devinfo timed out");
  const auto& vi = v.facts.verbs;
  auto count = verbs_count(v);
  std::string sys = std::to_string(sysfs);
  if (vi.error != VerbsError::none || !count || *count == 0) {
    std::string what = vi.error_text.empty() ? "" : " (" + vi.error_text + ")";
    return finding(Layer::rdma_access, "verbs", Status::fail,
                   "verbs sees 0 devices while sysfs has " + sys + ": " + verbs_cause(vi, !uverbs(v).empty()) + what,
                   verbs_next(vi.error));
  }
  std::string seen = "verbs opens " + std::to_string(*count) + "/" + sys + " devices";
  if (static_cast<std::size_t>(*count) < sysfs)
    return finding(Layer::rdma_access, "verbs", Status::warn, seen + " (the rest are not allocated to this pod?)");
  if (static_cast<std::size_t>(*count) > sysfs && !v.facts.unallocated_devices.empty())
    seen = "verbs lists " + std::to_string(*count) + " devices, " + sys + " of them this pod's";
  return finding(Layer::rdma_access, "verbs", Status::ok, seen);
}

std::string bytes_text(std::uint64_t b) {
  if (b % mib == 0) return std::to_string(b / mib) + " MiB";
  if (b % kib == 0) return std::to_string(b / kib) + " KiB";
  return std::to_string(b) + " bytes";
}

std::optional<probe::LimitValue> effective_memlock(const probe::Memlock& m) {
  if (m.soft) return m.soft;
  return m.ulimit_l;
}

const char* memlock_next =
    "securityContext.capabilities.add: [IPC_LOCK] (effective only for uid 0), or LimitMEMLOCK=infinity for "
    "containerd on the node";

// Whose limits memory registration meets: the running KV worker's (a wrapper shell's when only
// it runs), else the exec shell's, which only approximates it.
struct LimitSource {
  std::string who; // "worker pid 57 (dynamo.vllm)", "exec shell"
  probe::Memlock memlock;
  std::optional<std::uint64_t> cap_eff;
  bool worker = false;
};

bool shell_name(const std::string& comm) {
  return comm == "sh" || comm == "bash" || comm == "dash" || comm == "ash" || comm == "busybox";
}

bool readable(const probe::WorkerProcess& w) {
  return w.memlock.soft || w.cap_eff;
}

// Every KV worker process registers memory under its own limits: each readable one is judged
// (python processes before a wrapper shell), else the exec shell's, which only approximates them.
std::vector<LimitSource> limit_sources(const probe::NodeFacts& f) {
  std::vector<LimitSource> out;
  for (bool shells : {false, true}) {
    for (const auto& w : f.platform.workers)
      if (readable(w) && shell_name(w.comm) == shells)
        out.push_back({"worker pid " + std::to_string(w.pid) + " (" + w.module + ")", w.memlock,
                       w.cap_eff, true});
    if (!out.empty())
      return out;
  }
  const auto& workers = f.platform.workers;
  std::string why = f.tool("kv_worker") == nullptr ? "exec shell"
                    : !f.platform.workers_read
                        ? "exec shell (no grep in the image to find the worker)"
                    : workers.empty() ? "exec shell (no Dynamo worker process running)"
                                      : "exec shell (the worker's limits were unreadable)";
  return {{why, f.memlock, f.cap_eff, false}};
}

// The exec shell's soft limit, when it differs from the worker's: the worker raised its own.
std::string shell_note(const NodeView& v, const LimitSource& src) {
  auto shell = effective_memlock(v.facts.memlock);
  if (!src.worker || !shell || shell->unlimited)
    return {};
  return " (the exec shell has " + bytes_text(shell->bytes) + ": the worker raised its own limit)";
}

report::Finding memlock_of(const NodeView& v, const LimitSource& src) {
  // Only an effective capability counts: a non-root container gets IPC_LOCK in its bounding set
  // but not in CapEff (nvidia-container-toolkit #2037).
  if (src.cap_eff && probe::has_cap_ipc_lock(*src.cap_eff))
    return finding(Layer::rdma_access, "memlock", Status::ok,
                   src.who + ": CAP_IPC_LOCK effective, the memlock limit does not apply");
  auto limit = effective_memlock(src.memlock);
  if (!limit)
    return finding(Layer::rdma_access, "memlock", Status::skipped,
                   src.who + ": neither /proc/<pid>/limits nor ulimit -l could be read",
                   "grep 'Max locked memory' /proc/self/limits");
  if (limit->unlimited)
    return finding(Layer::rdma_access, "memlock", Status::ok,
                   src.who + ": memlock unlimited" + shell_note(v, src));
  std::string cap = src.cap_eff ? " and no effective CAP_IPC_LOCK" : " (CapEff unread)";
  std::string value = src.who + ": memlock " + bytes_text(limit->bytes) + cap;
  // 64 KiB (kernel < 5.16) and 8 MiB (>= 5.16) are the defaults: far too small to register KV buffers.
  if (limit->bytes <= 8 * mib)
    return finding(Layer::rdma_access, "memlock", Status::fail,
                   value + ": RDMA memory registration fails (ibv_create_cq/ibv_reg_mr: Cannot allocate memory)",
                   memlock_next);
  return finding(Layer::rdma_access, "memlock", Status::warn,
                 value + ": finite, large KV registrations may fail; unlimited is what UCX asks for", memlock_next);
}

// The worst of the workers' limits; ok from the exec shell's while a worker runs whose own were
// unreadable is no proof.
report::Finding memlock(const NodeView& v) {
  auto sources = limit_sources(v.facts);
  std::optional<report::Finding> worst;
  for (const auto& src : sources)
    if (auto f = memlock_of(v, src);
        !worst || report::severity(f.status) > report::severity(worst->status))
      worst = std::move(f);
  if (sources.size() > 1)
    worst->detail += " (the worst of " + std::to_string(sources.size()) + " worker processes)";
  bool unread_worker = !sources.front().worker && !v.facts.platform.workers.empty();
  if (unread_worker && worst->status == Status::ok) {
    worst->status = Status::warn;
    worst->detail += ": the running worker's own limits are unknown";
    worst->next = "grep -H 'Max locked memory' /proc/[0-9]*/limits (the worker's line)";
  }
  return *worst;
}

}  // namespace

std::vector<report::Finding> judge_rdma_access(const NodeView& v) {
  std::vector<report::Finding> out{device_nodes(v)};
  if (auto f = verbs_provider(v)) out.push_back(*f);
  if (auto f = roce_netns(v)) out.push_back(*f);
  out.push_back(memlock(v));
  return out;
}

}  // namespace icheck::rules::node
