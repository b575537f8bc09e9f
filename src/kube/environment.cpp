#include "kube/environment.hpp"

#include "util/read_file.hpp"

#include <cstdlib>
#include <filesystem>

namespace icheck::kube {

Environment real_environment() {
  Environment env;
  env.getenv = [](std::string_view name) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr)
      return std::nullopt;
    return std::string(value);
  };
  env.read_file = [](const std::string& path) {
    return read_regular_file(path, kKubeconfigCap, "a kubeconfig");
  };
  env.exists = [](const std::string& path) {
    std::error_code ec;
    return std::filesystem::exists(path, ec);
  };
  env.is_directory = [](const std::string& path) {
    std::error_code ec;
    return std::filesystem::is_directory(path, ec);
  };
  return env;
}

std::optional<std::string> non_empty_env(const Environment& env, std::string_view name) {
  auto value = env.getenv(name);
  if (!value || value->empty())
    return std::nullopt;
  return value;
}

} // namespace icheck::kube
