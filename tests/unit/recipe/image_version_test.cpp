// The framework version an official image's tag names; Dynamo's images and floating tags say none.
#include "recipe/image_version.hpp"

#include <doctest/doctest.h>

using icheck::recipe::image_version;

TEST_CASE("image version: the frameworks' own images, with or without the v and a registry") {
  CHECK(image_version("vllm/vllm-openai:v0.11.0") ==
        std::pair<std::string, std::string>{"vllm", "0.11.0"});
  CHECK(image_version("docker.io/vllm/vllm-openai:v0.11.1") ==
        std::pair<std::string, std::string>{"vllm", "0.11.1"});
  CHECK(image_version("lmsysorg/sglang:v0.5.3-cu129") ==
        std::pair<std::string, std::string>{"sglang", "0.5.3"});
  CHECK(image_version("nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc5") ==
        std::pair<std::string, std::string>{"tensorrt_llm", "1.2.0rc5"});
  CHECK(image_version("vllm/vllm-openai:v0.11.0@sha256:0123") ==
        std::pair<std::string, std::string>{"vllm", "0.11.0"});
}

TEST_CASE("image version: Dynamo's runtime images, floating tags, no tag and look-alikes conclude "
          "nothing") {
  CHECK_FALSE(image_version("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.3.0"));
  CHECK_FALSE(image_version("vllm/vllm-openai:latest"));
  CHECK_FALSE(image_version("vllm/vllm-openai:nightly"));
  CHECK_FALSE(image_version("vllm/vllm-openai"));
  CHECK_FALSE(image_version("registry:5000/vllm/vllm-openai"));
  CHECK_FALSE(image_version("myorg/vllm/vllm-openai-fork:v0.11.0"));
  CHECK_FALSE(image_version("notvllm/vllm-openai:v0.11.0"));
  CHECK_FALSE(image_version(""));
}
