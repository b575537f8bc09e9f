// Roles, resources and shape of named recipes; expected values read from the YAML by hand.

#include "recipe/load.hpp"
#include "recipe/shape.hpp"
#include "recipe_walk.hpp"

#include <doctest/doctest.h>

using namespace icheck;
using recipe::Deployment;

namespace {

Deployment only_dgd(const std::string& relative) {
  auto files = recipe::load_recipe(test::recipes_root / relative, false);
  REQUIRE(files.has_value());
  REQUIRE(files->size() == 1);
  REQUIRE(files->front().deployments.size() == 1);
  return files->front().deployments.front();
}

const recipe::Service& service(const Deployment& dgd, const std::string& name) {
  for (const auto& s : dgd.services) {
    if (s.name == name) {
      return s;
    }
  }
  FAIL("no service " << name);
  throw;
}

std::string roles(const Deployment& dgd) {
  std::string out;
  for (const auto& s : dgd.services) {
    out += (out.empty() ? "" : " ") + s.name + "=" + std::string(dynamo::role_name(s.role));
  }
  return out;
}

}  // namespace

TEST_CASE("v1alpha1 multinode disagg: deepseek-r1 vllm hopper 16 GPU") {
  const auto dgd = only_dgd("deepseek-r1/vllm/disagg/deploy_hopper_16gpu.yaml");
  CHECK(dgd.name == "vllm-dsr1");
  CHECK(dgd.api_version == "nvidia.com/v1alpha1");
  CHECK(roles(dgd) == "Frontend=frontend decode=decode prefill=prefill");
  const auto& prefill = service(dgd, "prefill");
  CHECK(prefill.node_count == 2);
  CHECK(prefill.replicas == 1);
  CHECK(prefill.gpus == 8);
  CHECK(prefill.rdma_resources == std::map<std::string, std::string>{{"rdma/ib", "8"}});
  CHECK(recipe::is_disagg(dgd));
  CHECK(recipe::is_cross_node(dgd));
  CHECK_FALSE(recipe::mnnvl_intended(dgd));
}

TEST_CASE("v1alpha1 disagg without multinode: 8 + 8 GPUs cannot share a node") {
  const auto dgd = only_dgd("llama-3-70b/vllm/disagg-multi-node/deploy.yaml");
  CHECK(roles(dgd) == "Frontend=frontend VllmPrefillWorker=prefill VllmDecodeWorker=decode");
  CHECK(service(dgd, "VllmDecodeWorker").gpus == 8);
  CHECK(service(dgd, "VllmDecodeWorker").rdma_resources.empty());
  CHECK(recipe::is_disagg(dgd));
  CHECK(recipe::is_cross_node(dgd));
}

TEST_CASE("aggregated worker named VllmPrefillWorker is a worker: its args say so") {
  const auto dgd = only_dgd("llama-3-70b/vllm/agg/deploy.yaml");
  CHECK(roles(dgd) == "Frontend=frontend VllmPrefillWorker=worker");
  CHECK_FALSE(recipe::is_disagg(dgd));
  CHECK_FALSE(recipe::is_cross_node(dgd));
}

TEST_CASE("aggregated decode-only deployment is not disagg") {
  const auto dgd = only_dgd("deepseek-v4/deepseek-v4-flash/sglang/agg/deploy.yaml");
  CHECK(roles(dgd) == "Frontend=frontend decode=decode");
  CHECK_FALSE(recipe::is_disagg(dgd));
}

TEST_CASE("v1beta1 multinode disagg on GB200 with MNNVL: kimi-k3") {
  const auto dgd = only_dgd("kimi-k3/vllm/disagg-gb200-agentic/deploy.yaml");
  CHECK(dgd.name == "kimi-k3-disagg");
  CHECK(dgd.api_version == "nvidia.com/v1beta1");
  CHECK(roles(dgd) == "Frontend=frontend Prefill=prefill Decode=decode");
  const auto& prefill = service(dgd, "Prefill");
  CHECK(prefill.node_count == 4);
  CHECK(prefill.gpus == 4);
  CHECK(prefill.rdma_resources.size() == 4);
  CHECK(prefill.rdma_resources.contains("networking.gke.io.networks/rdma-3"));
  CHECK(prefill.resource_claims);
  CHECK(prefill.ipc_lock);
  CHECK(dgd.compute_domain_in_file);
  CHECK(recipe::is_cross_node(dgd));
  CHECK(recipe::mnnvl_intended(dgd));
  CHECK(recipe::find_env(prefill, "UCX_TLS")->value == "^cuda_ipc");
}

TEST_CASE("v1beta1 disagg with two decode replicas is cross-node") {
  const auto dgd = only_dgd("qwen3.5-122b/fp8/vllm/disagg-h200-agentic/deploy.yaml");
  CHECK(roles(dgd) == "Frontend=frontend prefill=prefill decode=decode");
  CHECK(service(dgd, "decode").replicas == 2);
  CHECK(service(dgd, "decode").gpus == 1);
  CHECK(service(dgd, "prefill").ipc_lock);
  CHECK(service(dgd, "prefill").rdma_resources ==
        std::map<std::string, std::string>{{"rdma/ib", "1"}});
  CHECK(recipe::is_disagg(dgd));
  CHECK(recipe::is_cross_node(dgd));
}

TEST_CASE("1 GPU prefill + 1 GPU decode fits one node") {
  const auto dgd = only_dgd("nemotron-3.5-lightning/vllm/disagg-gb200-dflash-bf16/deploy.yaml");
  CHECK(recipe::is_disagg(dgd));
  CHECK_FALSE(recipe::is_cross_node(dgd));
}

TEST_CASE("GKE RoCE: the .IP address resources are not RDMA devices") {
  auto files = recipe::load_recipe(test::recipes_root / "qwen3-32b/vllm/cloud-providers", false);
  REQUIRE(files.has_value());
  REQUIRE(files->size() == 5);
  CHECK((*files)[2].display_name == "deploy-gke-roce.yaml");
  const auto& decode = service((*files)[2].deployments.at(0), "DecodeWorker");
  CHECK(decode.rdma_resources == std::map<std::string, std::string>{
                                     {"networking.gke.io.networks/rdma-0", "1"},
                                     {"networking.gke.io.networks/rdma-1", "1"},
                                     {"networking.gke.io.networks/rdma-2", "1"},
                                     {"networking.gke.io.networks/rdma-3", "1"}});
  CHECK((*files)[0].display_name == "deploy-aks-ib.yaml");
  CHECK(service((*files)[0].deployments.at(0), "PrefillWorker").env_from ==
        std::vector<std::string>{"secretRef:hf-token-secret"});
}

TEST_CASE("anchors and aliases: the kustomize base shares one env list") {
  auto files = recipe::load_recipe(test::recipes_root / "qwen3-32b/vllm/cloud-providers/kustomize/base", false);
  REQUIRE(files.has_value());
  REQUIRE(files->size() == 2);
  CHECK((*files)[1].display_name == "kustomization.yaml");
  CHECK((*files)[1].deployments.empty());
  CHECK((*files)[1].other_kinds == std::vector<std::string>{"Kustomization/"});
  const auto& dgd = (*files)[0].deployments.at(0);
  const auto& prefill = service(dgd, "PrefillWorker");
  const auto& decode = service(dgd, "DecodeWorker");
  CHECK(prefill.env.size() == decode.env.size());
  CHECK(recipe::find_env(decode, "MODEL_NAME")->value == "Qwen/Qwen3-32B");
}

TEST_CASE("other kinds in a manifest are listed, ComputeDomain marks the deployment") {
  auto files = recipe::load_recipe(
      test::recipes_root / "deepseek-v4/deepseek-v4-pro/sglang/disagg-gb200/deploy.yaml", false);
  REQUIRE(files.has_value());
  const auto& file = files->front();
  CHECK(file.display_name.ends_with("disagg-gb200/deploy.yaml"));
  REQUIRE(file.other_kinds.size() == 2);
  CHECK(file.other_kinds[0].starts_with("ComputeDomain/"));
  CHECK(file.other_kinds[1].starts_with("ResourceClaimTemplate/"));
  CHECK(file.deployments.at(0).compute_domain_in_file);
}

TEST_CASE("TRT-LLM disagg with the roles only inside a multi-line sh -c script stays disagg") {
  // The tool read both as aggregated ("transport not exercised", surface-ok) before the
  // script was split as a shell splits it: the quotes, and the value from ${DISAGG_MODE}.
  for (const char* variant : {"quoted", "env"}) {
    CAPTURE(std::string(variant));
    const auto path = std::filesystem::path(ICHECK_TEST_DATA) / "fixtures" / "recipe" /
                      ("trtllm-disagg-roles-in-script-" + std::string(variant) + ".yaml");
    auto files = recipe::load_recipe(path, false);
    REQUIRE(files.has_value());
    REQUIRE(files->front().deployments.size() == 1);
    const auto& dgd = files->front().deployments.front();
    CHECK(roles(dgd) == "Frontend=frontend TrtllmWorkerA=prefill TrtllmWorkerB=decode");
    CHECK(recipe::is_disagg(dgd));
    CHECK(recipe::is_cross_node(dgd));
  }
}

TEST_CASE("componentType main: the roles inside the bash -c scripts make it disagg, said as read") {
  const auto dir = std::filesystem::path(ICHECK_TEST_DATA) / "fixtures" / "recipe";
  auto files = recipe::load_recipe(dir / "sglang-disagg-componenttype-main.yaml", false);
  REQUIRE(files.has_value());
  const auto& dgd = files->front().deployments.at(0);
  CHECK(roles(dgd) == "Frontend=frontend SglangWorkerA=decode SglangWorkerB=prefill");
  CHECK(recipe::is_disagg(dgd));
  CHECK_FALSE(recipe::is_aggregated(dgd));
  CHECK(service(dgd, "SglangWorkerA").role_reading.not_understood == "component type 'main'");
  // Without the flags nothing tells the roles: neither disagg nor aggregated.
  files = recipe::load_recipe(dir / "sglang-componenttype-main-no-role.yaml", false);
  REQUIRE(files.has_value());
  const auto& unknown = files->front().deployments.at(0);
  CHECK(roles(unknown) == "Frontend=frontend SglangWorkerA= SglangWorkerB=");
  CHECK_FALSE(recipe::is_disagg(unknown));
  CHECK_FALSE(recipe::roles_known(unknown));
  CHECK_FALSE(recipe::is_aggregated(unknown));
}
