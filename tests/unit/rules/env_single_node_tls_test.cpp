// UCX_TLS without cuda_copy on a single-node (aggregated) recipe: the KV cache is in GPU memory,
// and the node check fails such a pod, so env fails it too (NVIDIA/TensorRT-LLM #18373).
#include "recipe/load.hpp"
#include "rules/env/env_rules.hpp"

#include <doctest/doctest.h>
#include <filesystem>

using namespace icheck;
using report::Status;

namespace {

recipe::Deployment recipe_dgd(const std::string& relative) {
  auto files =
      recipe::load_recipe(std::filesystem::path(ICHECK_TEST_DATA) / "recipes" / relative, false);
  REQUIRE(files.has_value());
  REQUIRE(files->front().deployments.size() == 1);
  return files->front().deployments.front();
}

// The recipe with `vars` added to every worker's env.
recipe::Deployment with_env(recipe::Deployment dgd, const std::vector<recipe::EnvVar>& vars) {
  for (auto& s : dgd.services)
    if (s.name.find("Worker") != std::string::npos)
      for (const auto& v : vars)
        s.env.push_back(v);
  return dgd;
}

std::vector<const report::Finding*> named(const std::vector<report::Finding>& fs,
                                          const std::string& suffix) {
  std::vector<const report::Finding*> out;
  for (const auto& f : fs)
    if (f.name.ends_with(suffix))
      out.push_back(&f);
  return out;
}

}  // namespace

TEST_CASE("env: UCX_TLS without cuda_copy fails on an aggregated single-node recipe, as node "
          "fails the pod") {
  auto f = rules::env_findings(
      with_env(recipe_dgd("llama-3-70b/vllm/agg/deploy.yaml"), {{"UCX_TLS", "rc_x,rc,tcp"}}));
  auto tls = named(f, " UCX_TLS");
  REQUIRE(tls.size() == 1);  // judged once, not also listed
  CHECK(tls[0]->status == Status::fail);
  CHECK(tls[0]->required);
  CHECK(tls[0]->detail.starts_with("UCX_TLS=rc_x,rc,tcp leaves out cuda_copy: UCX then takes the "
                                   "KV cache's GPU memory for host memory"));
  CHECK(tls[0]->next == "set UCX_TLS: rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc (or remove UCX_TLS)");
}

TEST_CASE("env: UCX_TLS with cuda_copy on the same recipe is listed, not failed") {
  auto f = rules::env_findings(with_env(recipe_dgd("llama-3-70b/vllm/agg/deploy.yaml"),
                                        {{"UCX_TLS", "rc_x,rc,tcp,cuda_copy"}}));
  auto tls = named(f, " UCX_TLS");
  REQUIRE(tls.size() == 1);
  CHECK(tls[0]->status == Status::ok);
  CHECK(tls[0]->detail == "rc_x,rc,tcp,cuda_copy");
}

TEST_CASE("env: KVBM offloading over NIXL's UCX backend needs cuda_copy too, KVBM without a named "
          "backend is listed") {
  auto kvbm = recipe_dgd("qwen3-32b/vllm/agg-kvbm/deploy.yaml");
  auto over_ucx = rules::env_findings(
      with_env(kvbm, {{"UCX_TLS", "rc_x,rc,tcp"}, {"DYN_KVBM_NIXL_BACKEND_UCX", "true"}}));
  auto tls = named(over_ucx, " UCX_TLS");
  REQUIRE(tls.size() == 1);
  CHECK(tls[0]->status == Status::fail);
  auto plain = rules::env_findings(with_env(kvbm, {{"UCX_TLS", "rc_x,rc,tcp"}}));
  tls = named(plain, " UCX_TLS");
  REQUIRE(tls.size() == 1);
  // KVBM's backends not named in the recipe: listed as set, optional (node judges the pod).
  CHECK(tls[0]->status == Status::ok);
  CHECK_FALSE(tls[0]->required);
}
