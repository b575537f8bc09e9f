#pragma once
// Reading a file the user named without blocking or flooding: only a regular file is read (a
// FIFO would block forever, /dev/zero would never end), never more than `cap` bytes. Every file
// the user names goes through here: manifests (recipe/) and kubeconfigs (kube/).

#include "util/expected.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace icheck {

// The file's bytes, or why not: "not a regular file (a FIFO)", "larger than the 16 MiB a
// manifest may be (500 MiB)" (`what` names the kind of file), "cannot be read (Permission
// denied)". Opened non-blocking, so a FIFO or a leased file never holds the run.
Expected<std::string> read_regular_file(const std::filesystem::path& path, std::size_t cap,
                                        std::string_view what);

}  // namespace icheck
