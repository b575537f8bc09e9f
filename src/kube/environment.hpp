#pragma once
// The process environment and file system as kubeconfig resolution sees them, injectable so
// every client-go rule can be unit-tested without touching the real $HOME or /var/run.

#include "util/expected.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace icheck::kube {

// A kubeconfig larger than this is not one (thousands of clusters with their certificates fit).
inline constexpr std::size_t kKubeconfigCap = std::size_t{16} << 20;

struct Environment {
  std::function<std::optional<std::string>(std::string_view)> getenv;
  // A regular file of at most kKubeconfigCap bytes, or why not (util/read_file.hpp).
  std::function<Expected<std::string>(const std::string&)> read_file;
  std::function<bool(const std::string&)> exists;
  std::function<bool(const std::string&)> is_directory;
};

Environment real_environment();

// getenv with client-go's reading: set-but-empty is the same as unset.
std::optional<std::string> non_empty_env(const Environment& env, std::string_view name);

} // namespace icheck::kube
