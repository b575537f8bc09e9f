#pragma once
// The ucx layer's judgement of what UCX can move KV with (internal to rules/ucx): the transports
// ucx_info -d lists, the devices' SRQ support, and UCX_TLS as the pod sets it.

#include "report/model.hpp"
#include "rules/node/node_view.hpp"

#include <optional>

namespace icheck::rules::node {

// "transports": from UCX_TLS when it rules RDMA out, else from ucx_info -d (RC or DC on an Active
// port of the pod; UD alone is no RDMA for KV; a device without an SRQ has no RC or DC), else
// from ibv_devinfo -v's max_srq, else skipped with the command that would tell.
report::Finding kv_transports(const NodeView& v);

// "UCX_TLS": fail when the pod's UCX_TLS leaves out cuda_copy (VRAM then reads as host memory and
// NIXL cannot register the KV cache), warn when multi-node NVLink is meant and it leaves out
// cuda_ipc; nullopt when UCX_TLS is unset or keeps them.
std::optional<report::Finding> tls_gpu_memory(const NodeView& v);

}  // namespace icheck::rules::node
