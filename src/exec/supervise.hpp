#pragma once
// Watching a started child (internal to exec/): collect both streams up to the cap, enforce
// the deadline, and kill the child's process group when either is passed.

#include <sys/types.h>

#include <chrono>

#include "exec/child.hpp"
#include "exec/fd.hpp"

namespace icheck::exec {

// SIGTERM first, SIGKILL this long after: kubectl gets a moment to close its stream cleanly.
inline constexpr std::chrono::milliseconds kKillGrace{200};
// After the child exits, descendants that still hold its pipes get this long before they
// are killed, so a stray background job cannot hold the run open.
inline constexpr std::chrono::milliseconds kDrainAfterExit{100};

struct Watched {
  pid_t pgid;      // the child's pid, also its process group id
  UniqueFd out;    // read ends of the child's stdout and stderr pipes
  UniqueFd err;
};

// Returns once the child has exited (it is NOT reaped: the caller reaps it after this, so
// the process group id cannot be reused while it is still being signalled here) and both
// streams are closed or drained. Fills out, err, timed_out, truncated. Never throws.
void supervise(Watched watched, const ChildSpec& spec, ChildResult& result);

}  // namespace icheck::exec
