#include "dynamo/transport_vars.hpp"
#include "rules/env/env_detail.hpp"
#include "rules/env/env_ucx_tls.hpp"
#include "rules/nixl/nixl_backend.hpp"

#include <algorithm>

using icheck::dynamo::kNcclIbDisableVar;
using icheck::dynamo::kUcxNetDevicesVar;
using icheck::dynamo::kUcxTlsVar;
using icheck::dynamo::setting;
using icheck::report::Status;

namespace icheck::rules::detail {

namespace {

// The recipe's UCX_TLS against what KV needs: RDMA between nodes, and cuda_copy wherever UCX
// carries KV (UCX detects GPU memory only through it), nullopt when it meets both.
std::optional<report::Finding> tls_gap(const recipe::Service& s, const EnvContext& ctx,
                                       const UcxTls& tls, const std::string& shown_tls) {
  const std::string name(kUcxTlsVar);
  const std::string fix = "set " + name + ": " + std::string(kKvTls) + " (or remove " + name + ")";
  if (!tls.cuda_copy && service_kv_backends(s).over_ucx())
    return env_finding(
        s, name, Status::fail,
        without_cuda_copy(shown_tls) +
            (ctx.cross_node && !tls.rdma ? "; it also has " + std::string(kNoRdmaTransport) : ""),
        fix);
  if (ctx.cross_node && !tls.rdma && !(ctx.mnnvl && !tls.cuda_ipc_off))
    return env_finding(s, name, Status::fail,
                       shown_tls + " has " + std::string(kNoRdmaTransport) +
                           (ctx.mnnvl ? " and no cuda_ipc for multi-node NVLink" : "") +
                           ": cross-node KV falls back to TCP",
                       fix);
  if (ctx.mnnvl && tls.cuda_ipc_off)
    return env_finding(s, name, Status::warn, without_cuda_ipc(shown_tls),
                       "add cuda_ipc to " + name);
  return std::nullopt;
}

}  // namespace

std::optional<report::Finding> judge_ucx_tls(const recipe::Service& s, const EnvContext& ctx) {
  const std::string name(kUcxTlsVar);
  const recipe::EnvVar* var = recipe::find_env(s, name);
  if (!var) {
    return env_finding(s, name, Status::ok,
                       "unset: UCX auto-selects transports (the image or operator may set it)");
  }
  if (var->is_reference) {
    return env_finding(s, name, Status::warn,
                       "from " + var->value + ": cannot be judged from the recipe",
                       "kubectl dynamo-icheck env --live");
  }
  const std::string shown_tls = setting(name, var->value);
  const UcxTls tls = parse_ucx_tls(var->value);
  if (!tls.active_message) {
    return env_finding(s, name, Status::fail,
                       shown_tls + " has no active-message transport (rc, ud, dc, tcp, sm): "
                                   "NIXL's control channel cannot connect",
                       "remove " + name + ", or add tcp (or rc) to it");
  }
  if (auto gap = tls_gap(s, ctx, tls, shown_tls))
    return gap;
  if (ctx.cross_node && !tls.rdma) {
    return env_finding(s, name, Status::ok,
                       shown_tls + ": no RDMA, KV moves over multi-node NVLink (cuda_ipc; "
                                   "MNNVL intended)");
  }
  if (tls.negated && tls.cuda_ipc_off) {
    return env_finding(s, name, Status::ok,
                       shown_tls + ": NVLink IPC deliberately off; same-node KV goes over RDMA");
  }
  return env_finding(s, name, Status::ok,
                     shown_tls + (tls.rdma ? ": RDMA and active-message transports allowed"
                                           : ": active-message transport allowed (single node)"));
}

// Without prefill/decode the KV cache still sits in GPU memory, and whatever UCX moves of it
// (KVBM offload, NIXL's registration) needs cuda_copy to see it: the node check fails such a pod
// the same way, so the recipe says so first.
std::optional<report::Finding> judge_ucx_tls_single_node(const recipe::Service& s) {
  const std::string name(kUcxTlsVar);
  const recipe::EnvVar* var = recipe::find_env(s, name);
  const auto backends = service_kv_backends(s);
  const bool kvbm_ucx =
      std::find(backends.kvbm.begin(), backends.kvbm.end(), "UCX") != backends.kvbm.end();
  if (!var || var->is_reference || !(backends.over_ucx() || kvbm_ucx))
    return std::nullopt;
  if (parse_ucx_tls(var->value).cuda_copy)
    return std::nullopt;
  return env_finding(s, name, Status::fail, without_cuda_copy(setting(name, var->value)),
                     "set " + name + ": " + std::string(kKvTls) + " (or remove " + name + ")");
}

std::optional<report::Finding> judge_net_devices(const recipe::Service& s) {
  const std::string name(kUcxNetDevicesVar);
  const recipe::EnvVar* var = recipe::find_env(s, name);
  if (!var) {
    return std::nullopt;
  }
  const std::string& value = var->value;
  if (value.find("mlx5_bond_") != std::string::npos) {
    return env_finding(s, name, Status::warn,
                       setting(name, value) + " names a LAG bond device: RDMA rails "
                                              "should be the compute-fabric NICs",
                       "list only compute-fabric NICs, e.g. " + name + ": mlx5_0:1,mlx5_1:1");
  }
  if (value == "all") {
    return env_finding(s, name, Status::warn,
                       setting(name, "all") + ": may mix fabrics (NIXL_ERR_REMOTE_DISCONNECT)",
                       "list only compute-fabric NICs, e.g. " + name + ": mlx5_0:1,mlx5_1:1");
  }
  return env_finding(s, name, Status::ok, setting(name, value));
}

std::optional<report::Finding> judge_nccl_ib(const recipe::Service& s) {
  const std::string name(kNcclIbDisableVar);
  const recipe::EnvVar* var = recipe::find_env(s, name);
  if (!var || var->value != "1" || s.node_count <= 1) {
    return std::nullopt;
  }
  return env_finding(s, name, Status::warn,
                     setting(name, "1") + " on a worker spanning " + std::to_string(s.node_count) +
                         " nodes: its NCCL traffic between nodes goes over TCP sockets",
                     "set " + name + ": \"0\" (or remove it)");
}

}  // namespace icheck::rules::detail
