#include "exec/child.hpp"

#include <sys/wait.h>

#include <exception>
#include <optional>

#include "exec/fd.hpp"
#include "exec/interrupt.hpp"
#include "exec/spawn.hpp"
#include "exec/supervise.hpp"

namespace icheck::exec {
namespace {

using Clock = std::chrono::steady_clock;

void record_status(int status, ChildResult& result) {
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
}

void run_started(Spawned& spawned, Pipe& out, Pipe& err, const ChildSpec& spec,
                 ChildResult& result) {
  // Our copies of the write ends must go, or the pipes never reach EOF.
  out.write.reset();
  err.write.reset();
  {
    RunningGroup running(spawned.child.id());  // a second signal kills it; reaped after this
    supervise(Watched{spawned.child.id(), std::move(out.read), std::move(err.read)}, spec, result);
  }
  std::error_code ec;
  spawned.child.wait(ec);
  if (ec) {
    result.spawn_error = "waiting for the child: " + ec.message();
    return;
  }
  record_status(spawned.child.native_exit_code(), result);
}

// The child's stdin: /dev/null, or (hold_stdin) the read end of a pipe whose write end stays
// in `held` until the child has been waited for. Pipes are close-on-exec: no other child
// inherits the write end and keeps the EOF away.
Expected<UniqueFd> stdin_for(const ChildSpec& spec, std::optional<Pipe>& held) {
  if (!spec.hold_stdin) return open_dev_null();
  auto pipe = make_pipe();
  if (!pipe) return pipe.error();
  UniqueFd read_end = std::move(pipe->read);
  held = std::move(*pipe);
  return read_end;
}

void run(const ChildSpec& spec, ChildResult& result) {
  if (interrupt_signal() != 0) {  // no new work once interrupted
    result.interrupted = true;
    return;
  }
  std::optional<Pipe> held;
  auto out = make_pipe();
  auto err = make_pipe();
  auto in = stdin_for(spec, held);
  for (const Error* e : {out ? nullptr : &out.error(), err ? nullptr : &err.error(),
                         in ? nullptr : &in.error()}) {
    if (e) {
      result.spawn_error = e->message;
      return;
    }
  }
  Spawned spawned = spawn_in_own_group(spec, StdFds{in->get(), out->write.get(), err->write.get()});
  in->reset();  // the child has its copy
  switch (spawned.status) {
    case SpawnStatus::not_found:
      result.not_found = true;
      return;
    case SpawnStatus::failed:
      result.spawn_error = spawned.error;
      return;
    case SpawnStatus::started:
      run_started(spawned, *out, *err, spec, result);
      return;
  }
}

}  // namespace

ChildResult run_child(const ChildSpec& spec) {
  ChildResult result;
  const auto start = Clock::now();
  try {
    run(spec, result);
  } catch (const std::exception& e) {
    result.spawn_error = std::string("internal error: ") + e.what();
  } catch (...) {
    result.spawn_error = "internal error";
  }
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  return result;
}

}  // namespace icheck::exec
