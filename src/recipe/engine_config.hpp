#pragma once
// TRT-LLM engine configs (the YAML file of --extra-engine-args). Pure.

#include <optional>
#include <string>
#include <string_view>

namespace icheck::recipe {

// cache_transceiver_config.backend, upper case ("DEFAULT", "UCX", "NIXL", "MPI", "MOONCAKE"):
// "" when the file does not set it, nullopt when the text is not a YAML mapping.
std::optional<std::string> transceiver_backend(std::string_view engine_config_yaml);

}  // namespace icheck::recipe
