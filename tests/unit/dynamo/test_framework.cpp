// Which framework a worker runs, and which backend-looking variables it does not read.
#include "dynamo/framework.hpp"

#include <doctest/doctest.h>

using namespace icheck::dynamo;

TEST_CASE("framework: Dynamo's backend modules and the frameworks' own servers") {
  CHECK(framework_of("python3 -m dynamo.vllm --model x --disaggregation-mode decode") ==
        Framework::vllm);
  CHECK(framework_of("exec python3 -m dynamo.sglang --config /etc/sglang/prefill.yaml") ==
        Framework::sglang);
  CHECK(framework_of("python3 -m dynamo.trtllm --extra-engine-args /c/prefill.yaml") ==
        Framework::trtllm);
  CHECK(framework_of("trtllm-serve serve model --server_role CONTEXT") == Framework::trtllm);
  CHECK(framework_of("vllm serve Qwen/Qwen3-0.6B") == Framework::vllm);
  // Nothing named, or two: nothing concluded.
  CHECK(framework_of("ray start --block") == Framework::unknown);
  CHECK(framework_of("python3 -m dynamo.vllm; python3 -m dynamo.sglang") == Framework::unknown);
  CHECK(framework_name(Framework::trtllm) == "TRT-LLM");
}

TEST_CASE("framework: vLLM reads no backend variable, SGLang and TRT-LLM read their own") {
  const auto vllm_real = ignored_backend_var(Framework::vllm, "VLLM_NIXL_KVCACHE_BACKEND");
  REQUIRE(vllm_real);
  CHECK(vllm_real->starts_with("--kv-transfer-config"));
  for (auto name : {"NIXL_BACKEND", "VLLM_NIXL_BACKEND", "TRTLLM_NIXL_KVCACHE_BACKEND",
                    "SGLANG_DISAGGREGATION_NIXL_BACKEND"})
    CHECK(ignored_backend_var(Framework::vllm, name));
  CHECK_FALSE(ignored_backend_var(Framework::sglang, "SGLANG_DISAGGREGATION_NIXL_BACKEND"));
  CHECK(*ignored_backend_var(Framework::sglang, "TRTLLM_NIXL_KVCACHE_BACKEND") ==
        "SGLANG_DISAGGREGATION_NIXL_BACKEND");
  CHECK_FALSE(ignored_backend_var(Framework::trtllm, "TRTLLM_NIXL_KVCACHE_BACKEND"));
  CHECK(ignored_backend_var(Framework::trtllm, "VLLM_NIXL_KVCACHE_BACKEND"));
  // Whether SGLang or TRT-LLM read NIXL_BACKEND is not known here: not concluded.
  CHECK_FALSE(ignored_backend_var(Framework::sglang, "NIXL_BACKEND"));
  CHECK_FALSE(ignored_backend_var(Framework::unknown, "VLLM_NIXL_KVCACHE_BACKEND"));
  CHECK_FALSE(ignored_backend_var(Framework::vllm, "UCX_TLS"));
}

TEST_CASE("framework: the entrypoint, Dynamo's modules apart from the frameworks' own servers") {
  CHECK(entrypoint_of("python3 -m dynamo.vllm --model m --kv-transfer-config {}") == "dynamo");
  CHECK(entrypoint_of("vllm serve meta-llama/Llama-3.3-70B-Instruct --port 8000") == "vllm-serve");
  CHECK(entrypoint_of("python3 -m vllm.entrypoints.openai.api_server --model m") == "vllm-serve");
  CHECK(entrypoint_of("python3 -m sglang.launch_server --model-path m") == "sglang-server");
  CHECK(entrypoint_of("trtllm-serve m --extra_llm_api_options x.yaml") == "trtllm-serve");
  CHECK(entrypoint_of("sleep infinity") == "");
  CHECK(entrypoint_of("python3 -m dynamo.vllm; vllm serve m") == "");  // two named: unknown
}
