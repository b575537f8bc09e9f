// env --live: a recipe's transport env compared with one pod's.

#include "recipe/load.hpp"
#include "rules/env_live.hpp"

#include <doctest/doctest.h>

using namespace icheck;
using report::Status;

TEST_CASE("live env: same, changed, injected, missing, referenced") {
  const std::vector<recipe::EnvVar> expected{
      {"UCX_TLS", "rc,cuda_copy", false},
      {"NCCL_IB_DISABLE", "0", false},
      {"UCX_NET_DEVICES", "mlx5_0:1", false},
      {"VLLM_NIXL_SIDE_CHANNEL_HOST", "fieldRef:status.podIP", true},
      {"HF_HOME", "/models", false},  // not a transport variable: never compared
  };
  const std::map<std::string, std::string> pod{
      {"UCX_TLS", "rc,cuda_copy"},
      {"NCCL_IB_DISABLE", "1"},
      {"VLLM_NIXL_SIDE_CHANNEL_HOST", "10.0.0.7"},
      {"NIXL_TELEMETRY_ENABLE", "n"},
  };
  const auto f = rules::compare_live("decode", expected, pod);
  REQUIRE(f.size() == 5);
  CHECK(f[0].name == "decode UCX_TLS");
  CHECK(f[0].status == Status::ok);
  CHECK(f[0].detail == "rc,cuda_copy as in the recipe");
  CHECK(f[1].status == Status::warn);
  CHECK(f[1].detail == "1 in the pod, 0 in the recipe: operator or image changed it");
  CHECK(f[2].name == "decode UCX_NET_DEVICES");
  CHECK(f[2].status == Status::warn);
  CHECK(f[2].detail == "recipe sets mlx5_0:1, the pod does not have it");
  CHECK(f[3].status == Status::ok);
  CHECK(f[3].detail == "10.0.0.7 (from fieldRef:status.podIP in the recipe)");
  CHECK(f[4].name == "decode NIXL_TELEMETRY_ENABLE");
  CHECK(f[4].status == Status::ok);
  CHECK_FALSE(f[4].required);
  CHECK(f[4].detail == "n (not in the recipe: injected by operator or image)");
  for (const auto& finding : f) {
    CHECK(finding.layer == report::Layer::env);
  }
}

TEST_CASE("live env: a secret-looking recipe value is compared masked") {
  const auto f = rules::compare_live("prefill", {{"NIXL_ETCD_TOKEN", "abc", false}},
                                     {{"NIXL_ETCD_TOKEN", "***"}});
  REQUIRE(f.size() == 1);
  CHECK(f[0].status == Status::ok);
  CHECK(f[0].detail == "*** as in the recipe");
}

TEST_CASE("live kv transfer: the recipe's path against the pod's") {
  // tests/recipes/nemotron-3-super-fp8/trtllm/disagg/deploy.yaml: the transceiver on UCX.
  const auto files = recipe::load_recipe(std::filesystem::path(ICHECK_TEST_DATA) / "recipes" /
                                             "nemotron-3-super-fp8/trtllm/disagg",
                                         false);
  REQUIRE(files);
  const recipe::Service* prefill = nullptr;
  for (const auto& s : files->front().deployments.front().services)
    if (s.role == dynamo::Role::prefill)
      prefill = &s;
  REQUIRE(prefill);
  const auto same = rules::compare_kv_live(*prefill, rules::service_kv_backends(*prefill));
  CHECK(same.name == prefill->name + " kv transfer (live)");
  CHECK(same.status == Status::ok);
  CHECK(same.detail == "UCX directly, not NIXL as in the recipe");
  // The pod's engine config (a changed ConfigMap) says DEFAULT: NIXL is back in the path.
  const auto pod = rules::kv_backends({}, {}, rules::EngineTransceiver{"DEFAULT", "/opt/dynamo/configs/config.yaml"});
  const auto moved = rules::compare_kv_live(*prefill, pod);
  CHECK(moved.status == Status::warn);
  CHECK(moved.detail.starts_with("the pod moves KV with NIXL with UCX (cache_transceiver_config.backend: DEFAULT in "
                                 "/opt/dynamo/configs/config.yaml), the recipe with UCX directly, not NIXL ("));
}
