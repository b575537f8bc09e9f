#pragma once
// What a UCX_TLS value lets UCX use (internal to rules/).

#include <string>
#include <string_view>

namespace icheck::rules::detail {

struct UcxTls {
  bool negated = false;        // "^a,b": everything except a and b
  bool rdma = false;           // rc*, dc*, ud*, ib, srd (or all)
  bool active_message = false; // rc*, ud*, dc*, ib, srd, tcp, sm/shm/posix/sysv (or all)
  bool cuda_ipc_off = false;   // cuda_ipc excluded ("^...cuda_ipc") or not listed
};

UcxTls parse_ucx_tls(std::string_view value);

}  // namespace icheck::rules::detail
