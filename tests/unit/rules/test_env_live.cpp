// env --live: a recipe's transport env compared with one pod's.

#include "recipe/load.hpp"
#include "rules/env/env_live.hpp"
#include "recipe/shape.hpp"
#include "outside/mask.hpp"
#include "rules/env/env_rules.hpp"
#include "dynamo/transport_vars.hpp"

#include <filesystem>

#include <doctest/doctest.h>

using namespace icheck;
using report::Status;

namespace {

// One aggregated service: nothing is judged, every variable is compared.
recipe::Deployment one_service(std::string name, std::vector<recipe::EnvVar> env) {
  recipe::Deployment dgd;
  dgd.name = "dgd";
  recipe::Service s;
  s.name = std::move(name);
  s.role = dynamo::Role::decode;
  s.env = std::move(env);
  dgd.services.push_back(std::move(s));
  return dgd;
}

}  // namespace

TEST_CASE("live env: same, changed, injected, missing, referenced") {
  const std::vector<recipe::EnvVar> expected{
      {"UCX_TLS", "rc,cuda_copy", false},
      {"NCCL_IB_DISABLE", "0", false},
      {"UCX_NET_DEVICES", "mlx5_0:1", false},
      {"NIXL_ETCD_ENDPOINTS", "configMapKeyRef:etcd/url", true},
      {"GLOO_SOCKET_IFNAME", "eth0", false},  // the probe never reads GLOO_*: never compared
      {"HF_HOME", "/models", false},  // not a transport variable: never compared
  };
  const std::map<std::string, std::string> pod{
      {"UCX_TLS", "rc,cuda_copy"},
      {"NCCL_IB_DISABLE", "1"},
      {"NIXL_ETCD_ENDPOINTS", "http://etcd:2379"},
      {"NIXL_TELEMETRY_ENABLE", "n"},
  };
  const auto dgd = one_service("decode", expected);
  const auto f = rules::compare_live(dgd, dgd.services.front(), pod);
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
  CHECK(f[3].detail == "http://etcd:2379 (from configMapKeyRef:etcd/url in the recipe)");
  CHECK(f[4].name == "decode NIXL_TELEMETRY_ENABLE");
  CHECK(f[4].status == Status::ok);
  CHECK_FALSE(f[4].required);
  CHECK(f[4].detail == "n (not in the recipe: injected by operator or image)");
  for (const auto& finding : f) {
    CHECK(finding.layer == report::Layer::env);
  }
}

TEST_CASE("live env: a secret-looking recipe value is compared masked") {
  const auto dgd = one_service("prefill", {{"NIXL_ETCD_TOKEN", "abc", false}});
  const auto f = rules::compare_live(dgd, dgd.services.front(), {{"NIXL_ETCD_TOKEN", "***"}});
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

namespace {

recipe::Deployment recipe_dgd(const std::string& relative) {
  auto files = recipe::load_recipe(std::filesystem::path(ICHECK_TEST_DATA) / "recipes" / relative, false);
  REQUIRE(files.has_value());
  REQUIRE(files->front().deployments.size() == 1);
  return files->front().deployments.front();
}

const recipe::Service& named(const recipe::Deployment& dgd, const std::string& name) {
  for (const auto& s : dgd.services)
    if (s.name == name) return s;
  FAIL("no service " << name);
  throw;
}

// What the node probe reports of a pod that carries exactly the service's env: the literal
// values of the variables it reads (a reference resolves to some value).
std::map<std::string, std::string> pod_env_of(const recipe::Service& s) {
  std::map<std::string, std::string> env;
  for (const auto& var : s.env) {
    if (dynamo::is_node_probe_var(var.name))
      env[var.name] = var.is_reference ? "resolved" : outside::shown_value(var.name, var.value);
  }
  return env;
}

}  // namespace

TEST_CASE("live env: UCX_TLS=tcp fails on a cross-node disagg worker wherever it came from") {
  // deepseek-r1's vLLM disagg recipe sets no UCX_TLS; qwen3.5-122b's sets ^cuda_ipc.
  const auto dsr1 = recipe_dgd("deepseek-r1/vllm/disagg/deploy_hopper_16gpu.yaml");
  const auto& decode = named(dsr1, "decode");
  auto injected = rules::compare_live(dsr1, decode, {{"UCX_TLS", "tcp"}});
  REQUIRE(injected.size() == 1);
  CHECK(injected[0].name == "decode UCX_TLS");
  CHECK(injected[0].status == Status::fail);
  CHECK(injected[0].detail.find("UCX_TLS=tcp leaves out cuda_copy") == 0);
  CHECK(injected[0].detail.find("; it also has no RDMA transport") != std::string::npos);
  CHECK(injected[0].detail.ends_with("(in the pod, not in the recipe: set by the operator or the image)"));

  const auto qwen = recipe_dgd("qwen3.5-122b/fp8/vllm/disagg-h200-agentic/deploy.yaml");
  const auto& prefill = named(qwen, "prefill");
  auto changed_env = pod_env_of(prefill);
  changed_env["UCX_TLS"] = "tcp,cuda_copy";
  for (const auto& f : rules::compare_live(qwen, prefill, changed_env)) {
    if (f.name != "prefill UCX_TLS") continue;
    CHECK(f.status == Status::fail);
    CHECK(f.detail.ends_with("(in the pod; the recipe has ^cuda_ipc: the operator or the image changed it)"));
  }
  // The same value in the recipe fails the same way in env.
  auto tcp_recipe = dsr1;
  for (auto& s : tcp_recipe.services) s.env.push_back({"UCX_TLS", "tcp", false});
  bool failed = false;
  for (const auto& f : rules::env_findings(tcp_recipe))
    failed = failed || (f.name == "decode UCX_TLS" && f.status == Status::fail);
  CHECK(failed);

  // Healthy: the recipe's own value in the pod.
  auto same = rules::compare_live(qwen, prefill, pod_env_of(prefill));
  for (const auto& f : same) {
    if (f.name != "prefill UCX_TLS") continue;
    CHECK(f.status == Status::ok);
    CHECK(f.detail.ends_with("(as in the recipe)"));
  }
}

TEST_CASE("live env: pods that carry exactly their disagg recipe's env give no live-only finding") {
  int disagg = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::filesystem::path(ICHECK_TEST_DATA) / "recipes")) {
    if (entry.path().extension() != ".yaml") continue;
    auto files = recipe::load_recipe(entry.path(), false);
    if (!files) continue;
    for (const auto& file : *files) {
      for (const auto& dgd : file.deployments) {
        if (!recipe::is_disagg(dgd)) continue;
        ++disagg;
        std::map<std::string, report::Status> in_env;
        for (const auto& f : rules::env_findings(dgd)) in_env[f.name] = f.status;
        for (const auto& s : dgd.services) {
          for (const auto& f : rules::compare_live(dgd, s, pod_env_of(s))) {
            CAPTURE(file.display_name);
            CAPTURE(f.name);
            CAPTURE(f.detail);
            // The recipe's own verdict on a judged variable carries over; nothing else is said.
            const auto judged = in_env.find(f.name);
            CHECK(f.status == (judged == in_env.end() ? Status::ok : judged->second));
            CHECK(f.detail.find("not in the recipe") == std::string::npos);
            CHECK(f.detail.find("does not have it") == std::string::npos);
            CHECK(f.detail.find("changed") == std::string::npos);
          }
        }
      }
    }
  }
  CHECK(disagg >= 40);
}

TEST_CASE("live env: NIXL_BACKEND injected into a vLLM pod is said ignored, not ok "
          "(awsome-inference #72)") {
  const auto dsr1 = recipe_dgd("deepseek-r1/vllm/disagg/deploy_hopper_16gpu.yaml");
  const auto& decode = named(dsr1, "decode");
  auto f = rules::compare_live(dsr1, decode, {{"NIXL_BACKEND", "LIBFABRIC"}});
  REQUIRE(f.size() == 1);
  CHECK(f[0].name == "decode NIXL_BACKEND");
  CHECK(f[0].status == Status::warn);
  CHECK(f[0].detail.starts_with(
      "NIXL_BACKEND=LIBFABRIC is ignored: vLLM takes its NIXL backend only from"));
  // A variable that chooses nothing stays an optional ok.
  f = rules::compare_live(dsr1, decode, {{"NIXL_LOG_LEVEL", "INFO"}});
  REQUIRE(f.size() == 1);
  CHECK(f[0].status == Status::ok);
}
