#include "exec/spawn.hpp"

#include <unistd.h>

#include <boost/process/args.hpp>
#include <boost/process/env.hpp>
#include <boost/process/environment.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/posix.hpp>
#include <boost/process/search_path.hpp>

#include <cerrno>
#include <mutex>
#include <optional>
#include <system_error>

#include "exec/fd.hpp"

namespace icheck::exec {
namespace {

namespace bp = boost::process;

// Runs in the forked child before exec: a new process group led by the child, so one
// kill(-pgid) reaches every descendant that did not leave the group on purpose.
struct OwnProcessGroup : bp::extend::handler {
  template <class Executor>
  void on_exec_setup(Executor& executor) const {
    if (::setpgid(0, 0) != 0) {
      executor.set_error(std::error_code(errno, std::system_category()), "setpgid failed");
      ::_exit(127);
    }
  }
};

// Boost.Process v1 makes its exec-error pipe with pipe() and marks it close-on-exec only
// afterwards; a fork from another thread in between would inherit it and stall this spawn
// until that other child exits. Only exec/ forks, so serialising spawns here closes the gap.
std::mutex g_spawn_mutex;

// argv[0] as a path to exec, or nullopt when no such program exists.
std::optional<std::string> resolve_program(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    if (::access(name.c_str(), F_OK) != 0) return std::nullopt;
    return name;
  }
  const auto found = bp::search_path(name);
  if (found.empty()) return std::nullopt;
  return found.string();
}

bp::environment child_environment(const ChildSpec& spec) {
  bp::environment env = boost::this_process::environment();
  for (const auto& [name, value] : spec.extra_env) env[name] = value;
  return env;
}

template <class... Extra>
bp::child launch(const std::string& program, const ChildSpec& spec, const StdFds& fds,
                 std::error_code& ec, Extra&&... extra) {
  const std::vector<std::string> args(spec.argv.begin() + 1, spec.argv.end());
  std::lock_guard lock(g_spawn_mutex);
  return bp::child(bp::exe = program, bp::args = args, bp::posix::fd.bind(0, fds.in),
                   bp::posix::fd.bind(1, fds.out), bp::posix::fd.bind(2, fds.err),
                   OwnProcessGroup{}, std::forward<Extra>(extra)..., ec);
}

}  // namespace

Spawned spawn_in_own_group(const ChildSpec& spec, const StdFds& fds) {
  Spawned spawned;
  if (spec.argv.empty() || spec.argv.front().empty()) {
    spawned.error = "no program given";
    return spawned;
  }
  const auto program = resolve_program(spec.argv.front());
  if (!program) {
    spawned.status = SpawnStatus::not_found;
    return spawned;
  }
  std::error_code ec;
  spawned.child = spec.extra_env.empty()
                      ? launch(*program, spec, fds, ec)
                      : launch(*program, spec, fds, ec, bp::env = child_environment(spec));
  if (ec) {
    spawned.error = "cannot run " + *program + ": " + ec.message();
    return spawned;
  }
  spawned.status = SpawnStatus::started;
  return spawned;
}

}  // namespace icheck::exec
