// The NIXL backend a worker uses, read as the frameworks read it. The command lines and values
// are those of recipes in tests/recipes (file named at each case).
#include <doctest/doctest.h>

#include "rules/nixl_backend.hpp"

using icheck::rules::kv_backends;

namespace {

// tests/recipes/qwen3-32b/vllm/cloud-providers/deploy-aws-p5.48xlarge.yaml, decode worker.
const std::vector<std::string> kAwsCommand = {
    "/bin/sh", "-lc",
    "exec python3 -m dynamo.vllm \\\n  --model \"${MODEL_NAME}\" \\\n  --disaggregation-mode decode \\\n"
    "  --kv-transfer-config \"${KV_TRANSFER_CONFIG}\" \\\n  --tensor-parallel-size \"${TENSOR_PARALLEL_SIZE}\"\n"};
const char* kAwsConfig =
    R"({"kv_connector":"NixlConnector","kv_role":"kv_both","kv_connector_extra_config":{"backends":["LIBFABRIC"]}})";

}  // namespace

TEST_CASE("nixl backend: none set is UCX by default") {
  auto b = kv_backends({}, {"python3", "-m", "dynamo.vllm", "--disaggregation-mode", "prefill"});
  CHECK(b.names == std::vector<std::string>{"UCX"});
  CHECK(b.is_default());
  CHECK(b.joined() == "UCX");
}

TEST_CASE("nixl backend: vLLM --kv-transfer-config through a shell variable; KVBM flags kept apart") {
  auto b = kv_backends({{"KV_TRANSFER_CONFIG", kAwsConfig},
                        {"DYN_KVBM_NIXL_BACKEND_LIBFABRIC", "true"},
                        {"DYN_KVBM_NIXL_BACKEND_UCX", "false"}},
                       kAwsCommand);
  CHECK(b.names == std::vector<std::string>{"LIBFABRIC"});
  CHECK(b.source == "--kv-transfer-config");
  CHECK(b.kvbm == std::vector<std::string>{"LIBFABRIC"});  // DYN_KVBM_NIXL_BACKEND_UCX=false: not KVBM's
  CHECK(b.uses("LIBFABRIC"));
  CHECK_FALSE(b.uses("UCX"));
  CHECK(b.plugins_needed() == std::vector<std::string>{"LIBFABRIC"});
}

TEST_CASE("nixl backend: KVBM's flags do not choose the KV transfer's backend") {
  // tests/recipes/qwen3-235b-a22b-fp8/trtllm/disagg/blackwell/deploy-aws-p6-b200.48xlarge.yaml:
  // only the KVBM flags are set, so TRT-LLM's transfer keeps its default, UCX.
  auto b = kv_backends({{"DYN_KVBM_NIXL_BACKEND_LIBFABRIC", "true"}, {"DYN_KVBM_NIXL_BACKEND_UCX", "false"}},
                       {"/bin/sh", "-c", "python3 -m dynamo.trtllm --disaggregation-mode decode\n"});
  CHECK(b.is_default());
  CHECK(b.names == std::vector<std::string>{"UCX"});
  CHECK(b.kvbm == std::vector<std::string>{"LIBFABRIC"});
  CHECK(b.plugins_needed() == std::vector<std::string>{"UCX", "LIBFABRIC"});
}

TEST_CASE("nixl backend: the variable unused by the command line is not read as the config") {
  auto b = kv_backends({{"KV_TRANSFER_CONFIG", kAwsConfig}}, {"python3", "-m", "dynamo.vllm"});
  CHECK(b.is_default());
  // $KV_TRANSFER_CONFIGX is another variable.
  CHECK(kv_backends({{"KV_TRANSFER_CONFIG", kAwsConfig}}, {"sh", "-c", "run $KV_TRANSFER_CONFIGX"}).is_default());
  CHECK(kv_backends({{"KV_TRANSFER_CONFIG", kAwsConfig}}, {"sh", "-c", "run $KV_TRANSFER_CONFIG"})
            .names == std::vector<std::string>{"LIBFABRIC"});
}

TEST_CASE("nixl backend: vLLM config as its own argument, Kubernetes $(VAR) form, escaped quotes") {
  // tests/recipes/nemotron-3.5-lightning/vllm/disagg-h100-dflash/deploy.yaml, prefill worker.
  auto inline_arg = kv_backends(
      {}, {"python3", "-m", "dynamo.vllm", "--kv-transfer-config",
           R"({"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_connector_extra_config":{"backends":["LIBFABRIC"]}})"});
  CHECK(inline_arg.names == std::vector<std::string>{"LIBFABRIC"});
  CHECK(inline_arg.source == "--kv-transfer-config");
  auto k8s = kv_backends({{"KV_TRANSFER_CONFIG", R"({"kv_connector_extra_config": {"backends": ["UCX", "libfabric"]}})"}},
                         {"python3", "--kv-transfer-config", "$(KV_TRANSFER_CONFIG)"});
  CHECK(k8s.names == std::vector<std::string>{"UCX", "LIBFABRIC"});
  auto escaped = kv_backends({}, {"sh", "-c", R"(vllm --kv-transfer-config "{\"backends\":[\"LIBFABRIC\"]}")"});
  CHECK(escaped.names == std::vector<std::string>{"LIBFABRIC"});
}

TEST_CASE("nixl backend: TRT-LLM and SGLang variables") {
  auto trt = kv_backends({{"TRTLLM_NIXL_KVCACHE_BACKEND", "LIBFABRIC"}}, {});
  CHECK(trt.names == std::vector<std::string>{"LIBFABRIC"});
  CHECK(trt.source == "TRTLLM_NIXL_KVCACHE_BACKEND");
  // tests/recipes/glm-5.2/sglang/disagg-h200-agentic/deploy.yaml
  auto sgl = kv_backends({{"SGLANG_DISAGGREGATION_NIXL_BACKEND", "UCX"}}, {});
  CHECK(sgl.names == std::vector<std::string>{"UCX"});
  CHECK_FALSE(sgl.is_default());
  CHECK(kv_backends({{"TRTLLM_NIXL_KVCACHE_BACKEND", " "}}, {}).is_default());
}
