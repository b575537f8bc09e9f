#pragma once
// --local: the probe script run by the local /bin/sh instead of in a pod, through the same
// child runner (same deadline, cap and result).

#include <chrono>
#include <cstddef>
#include <string>

#include "exec/child.hpp"

namespace icheck::exec {

inline constexpr const char* kLocalShell = "/bin/sh";

// {"/bin/sh", "-c", script}, for run_child or run_children.
ChildSpec local_spec(const std::string& script,
                     std::chrono::milliseconds deadline = kDefaultDeadline,
                     std::size_t output_cap = kDefaultOutputCap);

ChildResult run_local(const std::string& script,
                      std::chrono::milliseconds deadline = kDefaultDeadline,
                      std::size_t output_cap = kDefaultOutputCap);

}  // namespace icheck::exec
