#pragma once
// Starting a child in its own process group with Boost.Process (internal to exec/).

#include <boost/process/child.hpp>

#include <string>

#include "exec/child.hpp"

namespace icheck::exec {

// Descriptors the child gets as its stdin, stdout and stderr.
struct StdFds {
  int in = -1;
  int out = -1;
  int err = -1;
};

enum class SpawnStatus { started, not_found, failed };

struct Spawned {
  SpawnStatus status = SpawnStatus::failed;
  std::string error;               // for `failed`
  boost::process::child child;     // valid for `started`; its pid is also its process group id
};

// Resolves argv[0], then forks and execs it with `fds` bound and extra_env applied.
Spawned spawn_in_own_group(const ChildSpec& spec, const StdFds& fds);

}  // namespace icheck::exec
