#pragma once
// Reading one manifest without blocking or flooding: only a regular file is read (a FIFO
// would block forever, /dev/zero would never end), and never more than kManifestCap bytes.

#include "util/expected.hpp"

#include <cstddef>
#include <filesystem>
#include <string>

namespace icheck::recipe {

inline constexpr std::size_t kManifestCap = std::size_t{16} << 20;

// The file's bytes, or why not ("not a regular file (a FIFO)", "larger than the 16 MiB a
// manifest may be", "cannot be read (Permission denied)").
Expected<std::string> read_manifest_bytes(const std::filesystem::path& path,
                                          std::size_t cap = kManifestCap);

} // namespace icheck::recipe
