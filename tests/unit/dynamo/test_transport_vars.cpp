#include "dynamo/transport_vars.hpp"

#include <doctest/doctest.h>
#include <set>

using namespace icheck::dynamo;

TEST_CASE("transport variables: listed, read by the node probe, choosing a backend") {
  CHECK(is_transport_var("UCX_TLS"));
  CHECK(is_transport_var("NCCL_IB_DISABLE"));
  CHECK(is_transport_var("GLOO_SOCKET_IFNAME"));
  CHECK(is_transport_var("VLLM_NIXL_SIDE_CHANNEL_HOST"));
  CHECK(is_transport_var("TRTLLM_NIXL_KVCACHE_BACKEND"));
  CHECK(is_transport_var("TRTLLM_USE_UCX_KVCACHE"));
  CHECK_FALSE(is_transport_var("TRTLLM_ENABLE_PDL")); // tunes the engine, not the KV path
  CHECK_FALSE(is_transport_var("HF_TOKEN"));
  CHECK_FALSE(is_transport_var("UCX_")); // a prefix alone names nothing

  CHECK(is_node_probe_var("UCX_TLS"));
  CHECK(is_node_probe_var("NIXL_TELEMETRY_ENABLE"));
  CHECK_FALSE(is_node_probe_var("GLOO_SOCKET_IFNAME"));

  CHECK(is_backend_var("TRTLLM_NIXL_KVCACHE_BACKEND"));
  CHECK(is_backend_var("SGLANG_DISAGGREGATION_NIXL_BACKEND"));
  CHECK(is_backend_var("KV_TRANSFER_CONFIG"));
  CHECK(is_backend_var("DYN_KVBM_NIXL_BACKEND_UCX"));
  CHECK_FALSE(is_backend_var("DYN_KVBM_NIXL_BACKEND_"));
  CHECK_FALSE(is_backend_var("DYN_KVBM_NIXL_BACKEND_a b")); // a later line of a value
  CHECK_FALSE(is_backend_var("UCX_TLS"));
}

TEST_CASE("the probes' env filters are the table's names as case patterns") {
  CHECK(node_probe_env_patterns() ==
        "UCX_*=*|NCCL_*=*|NIXL_*=*|NIXL_BACKEND=*|MC_GID_INDEX=*|MC_MS_FILTERS=*|MC_FORCE_TCP=*");
  CHECK(backend_env_patterns() ==
        "TRTLLM_NIXL_KVCACHE_BACKEND=*|SGLANG_DISAGGREGATION_NIXL_BACKEND=*|KV_TRANSFER_CONFIG=*|"
        "DYN_KVBM_NIXL_BACKEND_*=*|NIXL_BACKEND=*|VLLM_NIXL_KVCACHE_BACKEND=*|VLLM_NIXL_BACKEND=*");
}

TEST_CASE("each variable read by name is spelled once and belongs to the table") {
  const auto& names = named_transport_vars();
  std::set<std::string_view> seen;
  for (auto name : names) {
    INFO(name);
    CHECK(seen.insert(name).second);
    CHECK((is_transport_var(name) || is_backend_var(name)));
  }
  CHECK(seen.count("UCX_NET_DEVICES") == 1);
  CHECK(setting(kUcxTlsVar, "rc,cuda_copy") == "UCX_TLS=rc,cuda_copy");
}
