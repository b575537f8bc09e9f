// UCX_TLS as the env and node layers both read it (one parser: rules/env/env_ucx_tls.hpp).
#include <doctest/doctest.h>

#include "rules/env/env_ucx_tls.hpp"

using icheck::rules::detail::parse_ucx_tls;

TEST_CASE("UCX_TLS: an allow list has RDMA when it names an RDMA transport or all") {
  CHECK(parse_ucx_tls("rc_x,cuda_copy,cuda_ipc").rdma);
  CHECK(parse_ucx_tls("all").rdma);
  CHECK(parse_ucx_tls("srd,cuda_copy").rdma);  // EFA
  CHECK_FALSE(parse_ucx_tls("cuda_copy,cuda_ipc,tcp").rdma);
  CHECK(parse_ucx_tls("cuda_copy,cuda_ipc,tcp").cuda_ipc_off == false);
  CHECK(parse_ucx_tls("tcp,cuda_copy").cuda_ipc_off);
}

TEST_CASE("UCX_TLS: an exclusion list loses RDMA only with ib, all, or rc, dc and ud together") {
  CHECK(parse_ucx_tls("^ud").rdma);
  CHECK(parse_ucx_tls("^rc,ud").rdma);  // dc remains
  CHECK_FALSE(parse_ucx_tls("^rc,dc,ud").rdma);
  CHECK_FALSE(parse_ucx_tls("^ib").rdma);
  CHECK(parse_ucx_tls("^cuda_ipc").cuda_ipc_off);
  CHECK(parse_ucx_tls("^cuda_ipc").active_message);
}

TEST_CASE("UCX_TLS: UD alone is no RDMA for KV, an exclusion list keeps RDMA until RC and DC are "
          "both gone") {
  CHECK_FALSE(parse_ucx_tls("ud,cuda_copy").rdma);
  CHECK_FALSE(parse_ucx_tls("ud_x,ud_v,tcp").rdma);
  CHECK(parse_ucx_tls("ud,cuda_copy").active_message);
  CHECK(parse_ucx_tls("dc_x,cuda_copy").rdma);
  CHECK(parse_ucx_tls("ib").rdma);
  CHECK_FALSE(parse_ucx_tls("^rc,dc").rdma);  // ud is all that is left
  CHECK(parse_ucx_tls("^rc_x,dc").rdma);      // rc_verbs is left
  CHECK_FALSE(parse_ucx_tls("^rc_x,rc_v,dc_x").rdma);
  CHECK(parse_ucx_tls("rc_x:aux,cuda_copy").rdma);  // UCX's ":aux" suffix is not part of the name
}

TEST_CASE("UCX_TLS: cuda_copy kept by name, by the cuda alias, by all, or by not excluding it") {
  CHECK(parse_ucx_tls("rc,cuda_copy").cuda_copy);
  CHECK(parse_ucx_tls("rc,cuda").cuda_copy);
  CHECK_FALSE(parse_ucx_tls("rc,cuda").cuda_ipc_off);  // cuda = cuda_copy, cuda_ipc, gdr_copy
  CHECK(parse_ucx_tls("all").cuda_copy);
  CHECK(parse_ucx_tls("^cuda_ipc").cuda_copy);
  CHECK(parse_ucx_tls("^ud").cuda_copy);
  CHECK_FALSE(parse_ucx_tls("tcp").cuda_copy);  // TensorRT-LLM #18373's host-injected value
  CHECK_FALSE(parse_ucx_tls("rc_x,cuda_ipc").cuda_copy);
  CHECK_FALSE(parse_ucx_tls("^cuda_copy").cuda_copy);
  CHECK_FALSE(parse_ucx_tls("^cuda").cuda_copy);
  CHECK(parse_ucx_tls("^cuda").cuda_ipc_off);
}
