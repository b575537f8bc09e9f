#pragma once
// What a UCX_TLS value lets UCX use (internal to rules/). UCX_TLS names transports and UCX's
// aliases (openucx/ucx src/ucp/core/ucp_context.c, ucp_tl_aliases): `ib` = rc_verbs, ud_verbs,
// rc_mlx5, ud_mlx5, dc_mlx5; `rc` = rc_mlx5, rc_verbs; `rc_x`/`rc_v` one of them; `dc`/`dc_x` =
// dc_mlx5; `ud`, `ud_x`, `ud_v`; `cuda` = cuda_copy, cuda_ipc, gdr_copy; `sm`/`shm`/`mm` the
// shared-memory ones; `all` everything. A leading `^` keeps everything it does not name.

#include <string>
#include <string_view>

namespace icheck::rules::detail {

struct UcxTls {
  bool negated = false;        // "^a,b": everything except a and b
  // A transport that does one-sided RDMA reads and writes, what NIXL's UCX backend moves KV
  // with: rc*, dc*, ib, srd (or all). UD only sends: alone it is no RDMA for KV.
  bool rdma = false;
  bool active_message = false; // rc*, ud*, dc*, ib, srd, tcp, sm/shm/posix/sysv (or all)
  // cuda_copy kept (named, `cuda`, `all`, or not excluded): UCX detects GPU memory only through
  // the cuda_copy memory domain; without it VRAM reads as host memory (TensorRT-LLM #18373).
  bool cuda_copy = false;
  bool cuda_ipc_off = false;  // cuda_ipc excluded ("^...cuda_ipc", "^cuda") or not listed
};

UcxTls parse_ucx_tls(std::string_view value);

// What env and the ucx layer say about a UCX_TLS, in the same words.
inline constexpr std::string_view kNoRdmaTransport =
    "no RDMA transport (rc, dc, ib, srd; ud alone has no one-sided RDMA)";
inline constexpr std::string_view kKvTls = "rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc";  // Dynamo's guide
// "<UCX_TLS=...> leaves out cuda_copy: ..." (NVIDIA/TensorRT-LLM #18373).
std::string without_cuda_copy(std::string_view shown_setting);
// "<UCX_TLS=...> leaves out cuda_ipc while multi-node NVLink is meant to carry KV: ...".
std::string without_cuda_ipc(std::string_view shown_setting);

}  // namespace icheck::rules::detail
