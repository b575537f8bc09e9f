// TRT-LLM engine configs: found through --extra-engine-args and the ConfigMap the worker mounts.
#include <doctest/doctest.h>

#include "recipe/engine_config.hpp"
#include "recipe/load.hpp"
#include "recipe_walk.hpp"

using namespace icheck::recipe;
namespace dynamo = icheck::dynamo;

TEST_CASE("engine config: cache_transceiver_config.backend, upper case, unset and unreadable said apart") {
  CHECK(transceiver_backend("backend: pytorch\ncache_transceiver_config:\n  backend: ucx\n") == "UCX");
  CHECK(transceiver_backend("backend: pytorch\n") == "");
  CHECK_FALSE(transceiver_backend("cache_transceiver_config: [").has_value());
  CHECK_FALSE(transceiver_backend("just a string").has_value());
}

TEST_CASE("engine config: every worker that names one finds it in its own manifest") {
  // Over every recipe under tests/recipes: each service with --extra-engine-args has the text of
  // its ConfigMap, and that text sets the transceiver the way the recipes do (DEFAULT or UCX;
  // the aggregated ones set none).
  int named = 0;
  for (const auto& folder : icheck::test::recipe_folders()) {
    const auto files = load_recipe(folder, false);
    if (!files) continue;
    for (const auto& file : *files)
      for (const auto& dgd : file.deployments)
        for (const auto& s : dgd.services) {
          if (s.engine_config_path.empty()) continue;
          CAPTURE(file.path.string());
          CAPTURE(s.name);
          ++named;
          REQUIRE(s.engine_config.has_value());
          const auto backend = transceiver_backend(*s.engine_config);
          CHECK((backend == "DEFAULT" || backend == "UCX" || backend == ""));  // "": aggregated configs set none
        }
  }
  // `grep -c -- --extra-engine-args` over tests/recipes: 23 lines in 15 TRT-LLM manifests, one per
  // worker; and 7 SGLang workers started with --config (glm-5.2, qwen3.8 agg-gb300), whose file
  // sets no transceiver.
  CHECK(named == 30);
}

TEST_CASE("engine config: the shapes the recipes use") {
  // $(ENGINE_ARGS) in a shell line with a directory mount (qwen3-235b), the path as its own
  // argument (deepseek-v32, kimi-k2.5), one ConfigMap per role (nemotron-3-super).
  const auto files = load_recipe(icheck::test::recipes_root / "deepseek-v32-fp4/trtllm/disagg-kv-router", false);
  REQUIRE(files);
  const auto& services = files->front().deployments.front().services;
  int with_config = 0;
  for (const auto& s : services) {
    if (s.engine_config_path.empty()) continue;
    CAPTURE(s.name);
    REQUIRE(s.engine_config.has_value());
    CHECK(s.engine_config_map == "dsv32-trtllm-config");
    CHECK(transceiver_backend(*s.engine_config) == "UCX");
    ++with_config;
  }
  CHECK(with_config == 2);
  const auto qwen = load_recipe(icheck::test::recipes_root / "qwen3-235b-a22b-fp8/trtllm/disagg/hopper", false);
  REQUIRE(qwen);
  for (const auto& s : qwen->front().deployments.front().services) {
    if (s.role != dynamo::Role::prefill)
      continue;
    CHECK(s.engine_config_path == "/engine_configs/prefill.yaml");
    CHECK(s.engine_config_map == "prefill-config");
    CHECK(transceiver_backend(s.engine_config.value_or("")) == "DEFAULT");
  }
}

TEST_CASE("engine config: a path no ConfigMap of the file mounts keeps its path, without text") {
  const auto file = parse_manifest(
      "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: t}\nspec:\n"
      "  components:\n    - name: decode\n      type: decode\n      podTemplate:\n        spec:\n"
      "          volumes: [{name: cfg, configMap: {name: elsewhere}}]\n"
      "          containers:\n            - name: main\n"
      "              args: [\"python3 -m dynamo.trtllm --extra-engine-args '/config/decode.yaml'\"]\n"
      "              volumeMounts: [{name: cfg, mountPath: /config}]\n",
      "inline.yaml");
  REQUIRE_FALSE(file.error.has_value());
  const auto& s = file.deployments.front().services.front();
  CHECK(s.engine_config_path == "/config/decode.yaml");
  CHECK_FALSE(s.engine_config.has_value());
  REQUIRE(s.config_mounts.size() == 1);
  CHECK(s.config_mounts[0].config_map == "elsewhere");
}
