#pragma once
// Reading one manifest: a regular file of at most kManifestCap bytes (util/read_file.hpp).

#include "util/read_file.hpp"

namespace icheck::recipe {

inline constexpr std::size_t kManifestCap = std::size_t{16} << 20;

inline Expected<std::string> read_manifest_bytes(const std::filesystem::path& path,
                                                 std::size_t cap = kManifestCap) {
  return read_regular_file(path, cap, "a manifest");
}

}  // namespace icheck::recipe
