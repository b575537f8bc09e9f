// The NIXL backend a worker uses, read as the frameworks read it. The command lines and values
// are those of recipes in tests/recipes (file named at each case).
#include <doctest/doctest.h>

#include "rules/nixl/nixl_backend.hpp"

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

TEST_CASE("nixl backend: vLLM --kv-transfer-config through a shell variable, KVBM flags kept apart") {
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

TEST_CASE("kv library: NIXL unless the framework is told to move KV another way") {
  using icheck::rules::EngineTransceiver;
  CHECK(kv_backends({}, {}).via_nixl());
  CHECK(kv_backends({}, {}).library_source.empty());
  // TRT-LLM's engine config: UCX, MPI and MOONCAKE bypass NIXL; DEFAULT, NIXL and unset use it.
  auto ucx = kv_backends({}, {}, EngineTransceiver{"UCX", "/config/prefill.yaml"});
  CHECK(ucx.library == "UCX");
  CHECK(ucx.path() == "UCX directly, not NIXL");
  CHECK(kv_path_text(ucx) == "UCX directly, not NIXL (cache_transceiver_config.backend: UCX in /config/prefill.yaml)");
  CHECK(kv_backends({}, {}, EngineTransceiver{"MPI", "x"}).path() == "MPI, not NIXL");
  for (const char* nixl : {"DEFAULT", "NIXL", ""}) {
    CAPTURE(nixl);
    auto b = kv_backends({{"TRTLLM_NIXL_KVCACHE_BACKEND", "LIBFABRIC"}}, {}, EngineTransceiver{nixl, "x"});
    CHECK(b.path() == "NIXL with LIBFABRIC");
  }
  CHECK(kv_backends({}, {}, EngineTransceiver{"", "x"}).library_source ==
        "cache_transceiver_config.backend unset in x");
  // Named on the command line but not read (no such process, unreadable, not in the recipe).
  auto unread = kv_backends({{"ENGINE_ARGS", "/config/prefill.yaml"}},
                            {"python3 -m dynamo.trtllm --extra-engine-args \"${ENGINE_ARGS}\""});
  CHECK(unread.via_nixl());
  CHECK(icheck::rules::kv_transfer_text(unread, "the pod") ==
        "NIXL with UCX; backend not set in the pod (the framework's default); --extra-engine-args file not "
        "read: cache_transceiver_config unknown, NIXL assumed");
  // SGLang: tests/recipes/nemotron-3-super-fp8/sglang/disagg/deploy.yaml passes nixl; mooncake is SGLang's own.
  CHECK(kv_backends({}, {"python3 -m dynamo.sglang --disaggregation-transfer-backend nixl --tp 4"}).via_nixl());
  auto mooncake = kv_backends({}, {"python3", "-m", "dynamo.sglang", "--disaggregation-transfer-backend=mooncake"});
  CHECK(mooncake.path() == "MOONCAKE, not NIXL");
  CHECK(mooncake.library_source == "--disaggregation-transfer-backend mooncake");
  // vLLM: a connector other than NixlConnector (alone or inside a multi-connector).
  CHECK(kv_backends({}, {"--kv-transfer-config", R"({"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"})"})
            .path() == "LMCacheConnectorV1, not NIXL");
  CHECK(kv_backends({}, {"--kv-transfer-config",
                         R"({"kv_connector":"PdConnector","kv_connector_extra_config":{"connectors":[{"kv_connector":"LMCacheConnectorV1"},{"kv_connector":"NixlConnector"}]}})"})
            .via_nixl());
}

TEST_CASE("nixl backend: a library or backend outside the vocabulary is named, never passed") {
  const std::vector<std::string> sglang = {"python3",       "-m",
                                           "dynamo.sglang", "--disaggregation-mode",
                                           "prefill",       "--disaggregation-transfer-backend",
                                           "nixl"};
  auto b = kv_backends({{"SGLANG_DISAGGREGATION_NIXL_BACKEND", "hyperlane"}}, sglang);
  CHECK(b.not_understood() == "backend HYPERLANE");
  CHECK(icheck::rules::not_understood_text(b, "x").starts_with(
      "x: backend HYPERLANE not in the vocabulary"));
  auto lib = sglang;
  lib.back() = "warpdrive";
  CHECK(kv_backends({}, lib).not_understood() == "library WARPDRIVE");
  // The known ones: the default, LIBFABRIC (aws recipe), SGLang's mooncake.
  CHECK(kv_backends({}, sglang).not_understood().empty());
  CHECK(kv_backends({{"KV_TRANSFER_CONFIG", kAwsConfig}}, kAwsCommand).not_understood().empty());
  lib.back() = "mooncake";
  CHECK(kv_backends({}, lib).not_understood().empty());
}

TEST_CASE("nixl backend: on vLLM, NIXL_BACKEND and VLLM_NIXL_KVCACHE_BACKEND choose nothing "
          "(awsome-inference #72)") {
  const std::vector<std::string> vllm = {"python3", "-m", "dynamo.vllm", "--kv-transfer-config",
                                         R"({"kv_connector":"NixlConnector","kv_role":"kv_both"})"};
  auto b = kv_backends({{"NIXL_BACKEND", "LIBFABRIC"},
                        {"VLLM_NIXL_KVCACHE_BACKEND", "LIBFABRIC"},
                        {"TRTLLM_NIXL_KVCACHE_BACKEND", "LIBFABRIC"}},
                       vllm);
  CHECK(b.framework == icheck::dynamo::Framework::vllm);
  CHECK(b.names ==
        std::vector<std::string>{"UCX"});  // TRT-LLM's variable no longer chooses on vLLM
  CHECK(b.is_default());
  REQUIRE(b.ignored.size() == 3);
  CHECK(b.ignored[0].name == "NIXL_BACKEND");
  // Healthy: the backend where vLLM reads it, nothing ignored.
  auto ok = kv_backends({{"KV_TRANSFER_CONFIG", kAwsConfig}}, kAwsCommand);
  CHECK(ok.ignored.empty());
  CHECK(ok.uses("LIBFABRIC"));
  // An unknown framework concludes nothing: the variable is read as before.
  auto unknown = kv_backends({{"TRTLLM_NIXL_KVCACHE_BACKEND", "LIBFABRIC"}}, {"ray", "start"});
  CHECK(unknown.ignored.empty());
  CHECK(unknown.uses("LIBFABRIC"));
}

TEST_CASE("nixl backend: SGLang without --disaggregation-transfer-backend moves KV with Mooncake, "
          "its default") {
  auto b = kv_backends({}, {"python3", "-m", "dynamo.sglang", "--disaggregation-mode", "decode"});
  CHECK(b.library == "MOONCAKE");
  CHECK_FALSE(b.via_nixl());
  CHECK(b.library_source == "SGLang's default (no --disaggregation-transfer-backend)");
  // A --config file not read here may choose another: not concluded.
  auto config =
      kv_backends({}, {"python3", "-m", "dynamo.sglang", "--config", "/etc/sglang/decode.yaml"});
  CHECK(config.library == "UNREAD");
  CHECK_FALSE(config.not_understood().empty());
  // TRT-LLM's cache transceiver: an unknown name is not read as NIXL.
  auto trt = kv_backends({}, {"python3", "-m", "dynamo.trtllm"},
                         icheck::rules::EngineTransceiver{"WARPDRIVE", "/c.yaml"});
  CHECK(trt.library == "WARPDRIVE");
  CHECK(trt.not_understood() == "library WARPDRIVE");
  CHECK(kv_backends({}, {"python3", "-m", "dynamo.trtllm"},
                    icheck::rules::EngineTransceiver{"DEFAULT", "/c.yaml"})
            .via_nixl());
}
