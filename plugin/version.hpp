// `kubectl dynamo-icheck version` and `--version`: what a bug report needs to name the build.
#pragma once

#include <string>

namespace icheck::plugin {
std::string version_line();  // "dynamo-icheck v0.1.0 (commit abc123, linux/amd64)"
std::string version_text();  // version_line() and the libraries the build linked
}  // namespace icheck::plugin
