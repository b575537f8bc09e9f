#include "dynamo/framework.hpp"

#include "dynamo/engine_flags.hpp"

#include <array>

namespace icheck::dynamo {
namespace {

bool names(std::string_view line, std::initializer_list<std::string_view> spellings) {
  for (auto s : spellings)
    if (line.find(s) != std::string_view::npos)
      return true;
  return false;
}

// The variables each framework reads for its backend.
std::string_view own_var(Framework f) {
  switch (f) {
  case Framework::sglang:
    return kSglangNixlBackendVar;
  case Framework::trtllm:
    return kTrtllmNixlBackendVar;
  default:
    return {};
  }
}

std::string real_setting(Framework f) {
  switch (f) {
  case Framework::vllm:
    return std::string(kVllmKvTransferConfigFlag) +
           " '{\"kv_connector_extra_config\":{\"backends\":[...]}}'";
  case Framework::sglang:
    return std::string(kSglangNixlBackendVar);
  case Framework::trtllm:
    return std::string(kTrtllmNixlBackendVar) +
           " (with cache_transceiver_config.backend NIXL or DEFAULT)";
  default:
    return {};
  }
}

}  // namespace

Framework framework_of(std::string_view line) {
  const std::array<std::pair<Framework, bool>, 3> seen{{
      {Framework::vllm, names(line, {"dynamo.vllm", "vllm serve", "vllm.entrypoints"})},
      {Framework::sglang, names(line, {"dynamo.sglang", "sglang.launch_server", "sglang serve"})},
      {Framework::trtllm, names(line, {"dynamo.trtllm", "trtllm-serve"})},
  }};
  Framework found = Framework::unknown;
  for (const auto& [framework, named] : seen) {
    if (!named)
      continue;
    if (found != Framework::unknown)
      return Framework::unknown;  // two named: nothing is concluded
    found = framework;
  }
  return found;
}

std::string entrypoint_of(std::string_view line) {
  const std::array<std::pair<std::string_view, bool>, 4> seen{{
      {"dynamo", names(line, {"dynamo.vllm", "dynamo.sglang", "dynamo.trtllm"})},
      {"vllm-serve", names(line, {"vllm serve", "vllm.entrypoints"})},
      {"sglang-server", names(line, {"sglang.launch_server", "sglang serve"})},
      {"trtllm-serve", names(line, {"trtllm-serve"})},
  }};
  std::string found;
  for (const auto& [name, named] : seen) {
    if (!named)
      continue;
    if (!found.empty())
      return "";
    found = name;
  }
  return found;
}

std::string_view framework_name(Framework f) {
  switch (f) {
  case Framework::vllm:
    return "vLLM";
  case Framework::sglang:
    return "SGLang";
  case Framework::trtllm:
    return "TRT-LLM";
  default:
    return "unknown";
  }
}

std::optional<std::string> ignored_backend_var(Framework f, std::string_view name) {
  if (f == Framework::unknown)
    return std::nullopt;
  const bool looks_like_choice = name == kNixlBackendVar || name == kVllmNixlKvcacheBackendVar ||
                                 name == kVllmNixlBackendVar || name == kSglangNixlBackendVar ||
                                 name == kTrtllmNixlBackendVar;
  if (!looks_like_choice || name == own_var(f))
    return std::nullopt;
  // NIXL_BACKEND is vLLM's case (its docs); whether SGLang or TRT-LLM read it is not known here.
  if (name == kNixlBackendVar && f != Framework::vllm)
    return std::nullopt;
  return real_setting(f);
}

}  // namespace icheck::dynamo
