#pragma once
// Engine config files: TRT-LLM's --extra-engine-args YAML and SGLang's --config YAML. Pure.

#include <optional>
#include <string>
#include <string_view>

namespace icheck::recipe {

// cache_transceiver_config.backend, upper case ("DEFAULT", "UCX", "NIXL", "MPI", "MOONCAKE"):
// "" when the file does not set it, nullopt when the text is not a YAML mapping.
std::optional<std::string> transceiver_backend(std::string_view engine_config_yaml);

// SGLang's --config file: its disaggregation-transfer-backend ("" when unset), nullopt when the
// text is not a YAML mapping.
std::optional<std::string> sglang_transfer_backend(std::string_view config_yaml);

}  // namespace icheck::recipe
