// What UCX can carry KV with in this pod. NIXL's UCX backend moves KV with one-sided RDMA reads
// and writes: RC and DC (SRD on EFA, judged by the efa finding). UD only sends datagrams, over
// which UCX emulates RMA in software; RC and DC need a shared receive queue on the device
// (sgl-project/sglang #30099: an AMD Ionic NIC with max_srq 0 offered only UD, and NIXL could not
// move KV across nodes).
#include "rules/ucx/kv_transports.hpp"

#include "dynamo/transport_vars.hpp"
#include "rules/env/env_ucx_tls.hpp"
#include "util/text.hpp"
#include "util/truthy.hpp"

#include <algorithm>

namespace icheck::rules::node {
namespace {

using probe::UcxTransport;
using report::Layer;
using report::Status;

bool carries_kv(const UcxTransport& t) {
  const auto& n = t.transport;
  return n.starts_with("rc") || n.starts_with("dc") || n == "srd";
}

bool datagram(const UcxTransport& t) {
  return t.transport.starts_with("ud");
}

void add(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end())
    v.push_back(s);
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// "mlx5_0:1" -> the sysfs port; nullptr when sysfs does not know it.
const probe::IbPort* sysfs_port(const NodeView& v, const std::string& ucx_device) {
  for (const auto* p : all_ports(v))
    if (port_id(*p) == ucx_device)
      return p;
  return nullptr;
}

bool efa_device(const probe::IbDevice& d) {
  return std::any_of(d.ports.begin(), d.ports.end(),
                     [](const probe::IbPort& p) { return p.link_layer == probe::LinkLayer::efa; });
}

// The pod's KV-carrying devices and those of them ibv_devinfo -v says have no SRQ (max_srq 0).
struct SrqView {
  std::vector<std::string> devices;
  std::vector<std::string> without;
};

SrqView srq_view(const NodeView& v) {
  SrqView out;
  if (!v.facts.srq.read)
    return out;
  for (const auto& d : *v.devices) {
    const auto* srq = v.facts.srq.find(d.name);
    if (efa_device(d) || srq == nullptr || !nic_role(v, d).traffic)
      continue;
    out.devices.push_back(d.name);
    if (srq->max_srq == 0)
      out.without.push_back(d.name);
  }
  return out;
}

std::string no_srq_text(const std::vector<std::string>& devices) {
  return join(devices) + (devices.size() == 1 ? " reports" : " report") +
         " max_srq 0 (ibv_devinfo -v): UCX's RC and DC transports need a shared receive queue "
         "(sgl-project/sglang #30099)";
}

const std::string rc_next =
    "give the workers a NIC and driver with RC support (an SRQ), then: ucx_info -d | grep -E "
    "'Transport: (rc|dc)'";

const std::string no_ucx_info_next =
    "run ucx_info -d in a debug container with UCX on the same node and RDMA resources, or set " +
    dynamo::setting(dynamo::kUcxProtoInfoVar, "y") +
    " on the worker to log the transport NIXL's UCX selects";

// Who listed the transports: ucx_info, or the image's libucp asked through python3 ctypes.
bool from_lib(const NodeView& v) {
  return v.facts.ucx_devices && !v.facts.ucx_source.empty() && v.facts.ucx_source != "ucx_info";
}

std::string lister(const NodeView& v) {
  return from_lib(v) ? "libucp" : "ucx_info -d";
}

std::string from_library(const NodeView& v) {
  return from_lib(v) ? " (from " + v.facts.ucx_source + ")" : "";
}

// Why the image's own UCX library could not be asked instead of ucx_info.
std::string library_unasked(const probe::UcxLibFacts& lib) {
  if (!lib.section)
    return ": cannot see the transports UCX picks";
  if (!lib.python)
    return ", and no python3 to ask its UCX library: cannot see the transports UCX picks";
  if (!lib.skipped.empty())
    return "; its UCX library could not be asked: " + lib.skipped;
  return "; asking its UCX library through python3 failed: " + lib.error;
}

// Without ucx_info, max_srq 0 on every KV device still rules RC and DC out.
report::Finding without_ucx_info(const NodeView& v) {
  const auto srq = srq_view(v);
  if (!srq.without.empty()) {
    const bool all = srq.without.size() == srq.devices.size();
    return finding(Layer::ucx, "transports", all ? Status::fail : Status::warn,
                   std::string(all ? "no RC or DC for KV: " : "no RC or DC on some devices: ") +
                       no_srq_text(srq.without) +
                       (all ? "; NIXL's UCX backend cannot move KV over RDMA" : ""),
                   rc_next);
  }
  if (not_read(v.facts, "ucx_info_d"))
    return not_read_finding(Layer::ucx, "transports", "ucx_info -d");
  return finding(Layer::ucx, "transports", Status::skipped,
                 "ucx_info not in the image (Dynamo's vLLM images carry UCX only inside the NIXL "
                 "wheel)" +
                     library_unasked(v.facts.ucx_lib),
                 no_ucx_info_next);
}

std::optional<report::Finding> ucx_info_failed(const NodeView& v) {
  const auto* t = v.facts.tool("ucx_info_d");
  if (v.facts.ucx_devices)
    return std::nullopt;
  std::string why =
      t->timed_out ? "timed out"
                   : "exited " + (t->exit_code ? std::to_string(*t->exit_code) : std::string("?"));
  auto first = text::lines(t->output);
  std::string line = first.empty() ? "" : ": " + std::string(text::trim(first.front()));
  return finding(Layer::ucx, "transports", Status::warn, "ucx_info -d " + why + line,
                 "ucx_info -d");
}

struct Seen {
  std::vector<std::string> kv, kv_devices, datagram, down, no_srq, others;
};

Seen sort_transports(const NodeView& v) {
  Seen s;
  const auto srq = srq_view(v);
  for (const auto& t : v.facts.ucx_devices->transports) {
    if (!carries_kv(t) && !datagram(t)) {
      add(s.others, t.transport);
      continue;
    }
    const auto* p = sysfs_port(v, t.device);
    const std::string device = t.device.substr(0, t.device.find(':'));
    if (p && !is_active(*p))
      add(s.down, t.device);
    else if (datagram(t))
      add(s.datagram, t.transport);
    else if (contains(srq.without, device))
      add(s.no_srq, device);
    else {
      add(s.kv, t.transport);
      add(s.kv_devices, t.device);
    }
  }
  return s;
}

report::Finding from_ucx_info(const NodeView& v) {
  const Seen s = sort_transports(v);
  if (!s.kv.empty()) {
    std::string detail = join(s.kv) + " on " + std::to_string(s.kv_devices.size()) + " device" +
                         (s.kv_devices.size() == 1 ? "" : "s") + " (" + join(s.kv_devices) + ")" +
                         from_library(v);
    if (s.no_srq.empty())
      return finding(Layer::ucx, "transports", Status::ok, detail);
    return finding(Layer::ucx, "transports", Status::warn,
                   detail + "; not on " + no_srq_text(s.no_srq), rc_next);
  }
  std::string detail =
      !s.datagram.empty()
          ? "no RC or DC for KV: " + lister(v) + " lists only " + join(s.datagram) +
                " for RDMA, which sends datagrams without one-sided reads or writes (UCX "
                "emulates them in software); NIXL's UCX backend cannot move KV over RDMA"
          : "UCX would fall back to TCP: " + lister(v) + " lists " +
                (s.others.empty() ? "nothing" : join(s.others)) + ", no rc/dc";
  // The devices without an SRQ explain a UD-only list too (UCX's RC could not open there).
  const auto without = s.no_srq.empty() ? srq_view(v).without : s.no_srq;
  if (!without.empty())
    detail += "; " + no_srq_text(without);
  if (!s.down.empty())
    detail += "; RDMA transports only on ports that are not Active: " + join(s.down);
  detail += from_library(v);
  const bool tcp = s.datagram.empty() && without.empty();
  return finding(Layer::ucx, "transports", Status::fail, detail,
                 tcp ? "fix the fabric and rdma-access findings above, then: ucx_info -d | grep "
                       "'Transport: rc'"
                     : rc_next);
}

// ucx_info -d lists every transport the UCX build has, whatever UCX_TLS allows: an RDMA transport
// it lists is UCX's to use only when the pod's UCX_TLS keeps one. Multi-node NVLink leaves RDMA
// out on purpose (the nvlink layer judges that).
std::optional<report::Finding> tls_without_rdma(const NodeView& v) {
  auto tls = env(v.facts, dynamo::kUcxTlsVar);
  if (v.mnnvl || !tls || text::trim(*tls).empty() || detail::parse_ucx_tls(text::trim(*tls)).rdma)
    return std::nullopt;
  std::vector<std::string> listed;
  if (v.facts.ucx_devices)
    for (const auto& t : v.facts.ucx_devices->transports)
      if (carries_kv(t))
        add(listed, t.transport);
  std::string seen =
      listed.empty() ? ""
                     : "; " + lister(v) + " lists " + join(listed) + ", which it does not allow";
  return finding(Layer::ucx, "transports", Status::fail,
                 dynamo::setting(dynamo::kUcxTlsVar, *tls) + " has " +
                     std::string(detail::kNoRdmaTransport) +
                     ": UCX moves KV between nodes over TCP" + seen,
                 "set " + dynamo::setting(dynamo::kUcxTlsVar, detail::kKvTls) + " (or unset it)");
}

}  // namespace

report::Finding kv_transports(const NodeView& v) {
  if (auto f = tls_without_rdma(v))
    return *f;
  const auto* t = v.facts.tool("ucx_info_d");
  if ((t == nullptr || !t->found) && from_lib(v))
    return from_ucx_info(v);  // the image's libucp answered instead
  if (t == nullptr || !t->found)
    return without_ucx_info(v);
  if (auto f = ucx_info_failed(v))
    return *f;
  return from_ucx_info(v);
}

std::optional<report::Finding> tls_gpu_memory(const NodeView& v) {
  auto tls = env(v.facts, dynamo::kUcxTlsVar);
  if (!tls || text::trim(*tls).empty())
    return std::nullopt;
  const auto parsed = detail::parse_ucx_tls(text::trim(*tls));
  const std::string shown = dynamo::setting(dynamo::kUcxTlsVar, *tls);
  // cuda_ipc and cuda_copy carry no active messages: NIXL's UCX wireup needs one (rc, ud, dc, tcp,
  // sm), else "no active messages transport ... Destination is unreachable" (ai-dynamo/nixl #1413).
  if (!parsed.active_message)
    return finding(Layer::ucx, std::string(dynamo::kUcxTlsVar), Status::fail,
                   shown +
                       " has no active-message transport (rc, ud, dc, tcp, sm): NIXL's UCX "
                       "wireup cannot connect (Destination is unreachable, ai-dynamo/nixl #1413)",
                   "add tcp (or rc) to " + std::string(dynamo::kUcxTlsVar) + ", or unset it");
  if (!parsed.cuda_copy)
    return finding(Layer::ucx, std::string(dynamo::kUcxTlsVar), Status::fail,
                   detail::without_cuda_copy(shown),
                   "set " + dynamo::setting(dynamo::kUcxTlsVar, detail::kKvTls) + " (or unset it)");
  auto mnnvl = env(v.facts, dynamo::kUcxCudaIpcMnnvlVar);
  if (!mnnvl || !truthy(*mnnvl) || !parsed.cuda_ipc_off)
    return std::nullopt;
  // Multi-node NVLink meant and cuda_ipc left out: RDMA still carries KV, or nothing but TCP does.
  return finding(Layer::ucx, std::string(dynamo::kUcxTlsVar),
                 parsed.rdma ? Status::warn : Status::fail,
                 detail::without_cuda_ipc(shown) +
                     (parsed.rdma ? "" : ", and it has no RDMA transport either"),
                 "add cuda_ipc to " + std::string(dynamo::kUcxTlsVar));
}

}  // namespace icheck::rules::node
