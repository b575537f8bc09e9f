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
