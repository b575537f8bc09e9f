#pragma once
// The framework version a container image names in its tag, for the official images whose tag
// is that version: vllm/vllm-openai:v0.11.0 (vLLM), lmsysorg/sglang:v0.5.3 (SGLang),
// nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc5 (TensorRT-LLM). Dynamo's runtime images
// (nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.3.0) carry Dynamo's version, not the framework's:
// nothing is concluded from them. Pure.

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace icheck::recipe {

// {"vllm", "0.11.0"}; nullopt for any other image, a tag that is no version, or a digest only.
std::optional<std::pair<std::string, std::string>> image_version(std::string_view image);

}  // namespace icheck::recipe
