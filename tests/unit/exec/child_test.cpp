#include "exec/child.hpp"

#include <doctest/doctest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

using namespace std::chrono_literals;
using icheck::exec::ChildResult;
using icheck::exec::ChildSpec;
using icheck::exec::run_child;

namespace {

ChildSpec sh(const std::string& script) {
  ChildSpec spec;
  spec.argv = {"sh", "-c", script};
  return spec;
}

// A pid file path unique to this test process.
std::string temp_path(const char* name) {
  return "/tmp/icheck-exec-" + std::to_string(::getpid()) + "-" + name;
}

pid_t read_pid(const std::string& path) {
  std::ifstream in(path);
  pid_t pid = 0;
  in >> pid;
  return pid;
}

// The process no longer runs: it does not exist, or it is a zombie (killed, and reparented
// to an init that may be slow to reap it, or never does in a bare container).
bool gone(pid_t pid) {
  for (int i = 0; i < 50; ++i) {
    if (::kill(pid, 0) != 0) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string pid_field, comm, state;
    if (stat >> pid_field >> comm >> state && state == "Z") return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

}  // namespace

TEST_CASE("exit codes are reported as the child gave them") {
  for (int code : {0, 3, 42}) {
    CAPTURE(code);
    const ChildResult r = run_child(sh("exit " + std::to_string(code)));
    CHECK(r.spawn_error == "");
    CHECK_FALSE(r.not_found);
    CHECK(r.exit_code == code);
    CHECK(r.signal == 0);
    CHECK_FALSE(r.timed_out);
    CHECK(r.ok() == (code == 0));
  }
}

TEST_CASE("stdout and stderr are collected separately") {
  const ChildResult r = run_child(sh("echo out1; echo err1 >&2; echo out2; echo err2 >&2"));
  CHECK(r.ok());
  CHECK(r.out == "out1\nout2\n");
  CHECK(r.err == "err1\nerr2\n");
}

TEST_CASE("argv reaches the child untouched and argv[0] is found on PATH") {
  ChildSpec spec;
  spec.argv = {"printf", "%s|", "a b", "", "$HOME", "'q'"};
  const ChildResult r = run_child(spec);
  CHECK(r.ok());
  CHECK(r.out == "a b||$HOME|'q'|");
}

TEST_CASE("extra environment is added to the inherited one") {
  ::setenv("ICHECK_EXEC_INHERITED", "kept", 1);
  ChildSpec spec = sh("printf '%s %s' \"$ICHECK_EXEC_INHERITED\" \"$UCX_TLS\"");
  spec.extra_env = {{"UCX_TLS", "rc,cuda_copy"}};
  const ChildResult r = run_child(spec);
  CHECK(r.ok());
  CHECK(r.out == "kept rc,cuda_copy");
}

TEST_CASE("stdin is empty, not the parent's") {
  const ChildResult r = run_child(sh("cat; echo done"));
  CHECK(r.ok());
  CHECK(r.out == "done\n");
}

TEST_CASE("a missing program is reported as not found, not as an error") {
  ChildSpec spec;
  spec.argv = {"icheck-no-such-program-xyz"};
  ChildResult r = run_child(spec);
  CHECK(r.not_found);
  CHECK(r.spawn_error == "");
  CHECK_FALSE(r.ok());

  spec.argv = {"/nonexistent/dir/kubectl"};
  r = run_child(spec);
  CHECK(r.not_found);
}

TEST_CASE("a program that cannot be executed is a spawn error") {
  ChildSpec spec;
  spec.argv = {"/etc/hostname"};  // exists, not executable
  const ChildResult r = run_child(spec);
  CHECK_FALSE(r.not_found);
  CHECK(r.spawn_error != "");
  CHECK_FALSE(r.ok());

  spec.argv = {};
  CHECK(run_child(spec).spawn_error != "");
}

TEST_CASE("a child killed by a signal reports the signal") {
  const ChildResult r = run_child(sh("kill -USR1 $$"));
  CHECK(r.signal == SIGUSR1);
  CHECK(r.exit_code == -1);
  CHECK_FALSE(r.timed_out);
  CHECK_FALSE(r.ok());
}

TEST_CASE("the deadline kills a hanging child within a second") {
  ChildSpec spec;
  spec.argv = {"sleep", "30"};
  spec.deadline = 300ms;
  const ChildResult r = run_child(spec);
  CHECK(r.timed_out);
  CHECK(r.signal == SIGTERM);
  CHECK_FALSE(r.ok());
  CHECK(r.elapsed >= 300ms);
  CHECK(r.elapsed < 10s);  // its sleep 30 did not run out: a hang bound, not a speed figure
}

TEST_CASE("the deadline kills the child's descendants too") {
  const std::string pid_file = temp_path("grandchild.pid");
  std::remove(pid_file.c_str());
  // The background sleep is a grandchild holding the pipes; the second sleep is the child's.
  ChildSpec spec = sh("sleep 30 & echo $! > " + pid_file + "; sleep 30");
  spec.deadline = 300ms;
  const ChildResult r = run_child(spec);
  CHECK(r.timed_out);
  CHECK(r.elapsed < 10s);  // its sleep 30 did not run out: a hang bound, not a speed figure
  const pid_t grandchild = read_pid(pid_file);
  REQUIRE(grandchild > 0);
  CHECK(gone(grandchild));
  std::remove(pid_file.c_str());
}

TEST_CASE("a child that ignores SIGTERM is killed after the grace period") {
  ChildSpec spec = sh("trap '' TERM; sleep 30 & wait; sleep 30");
  spec.deadline = 200ms;
  const ChildResult r = run_child(spec);
  CHECK(r.timed_out);
  CHECK(r.signal == SIGKILL);
  CHECK(r.elapsed < 10s);  // its sleep 30 did not run out: a hang bound, not a speed figure
}

TEST_CASE("a background job left holding the pipes does not hold the run open") {
  const std::string pid_file = temp_path("straggler.pid");
  std::remove(pid_file.c_str());
  ChildSpec spec = sh("sleep 30 & echo $! > " + pid_file + "; echo done");
  spec.deadline = 10s;
  const ChildResult r = run_child(spec);
  CHECK(r.ok());
  CHECK_FALSE(r.timed_out);
  CHECK(r.out == "done\n");
  CHECK(r.elapsed < 10s);  // its sleep 30 did not run out: a hang bound, not a speed figure
  const pid_t straggler = read_pid(pid_file);
  REQUIRE(straggler > 0);
  CHECK(gone(straggler));
  std::remove(pid_file.c_str());
}

TEST_CASE("output past the cap is cut, flagged, and the child killed") {
  ChildSpec spec;
  spec.argv = {"head", "-c", "10000000", "/dev/zero"};
  spec.output_cap = 1 << 20;
  const ChildResult r = run_child(spec);
  CHECK(r.truncated);
  CHECK(r.out.size() == spec.output_cap);
  CHECK(r.out.capacity() <= spec.output_cap);
  CHECK_FALSE(r.ok());
}

TEST_CASE("the cap applies to stderr as well") {
  ChildSpec spec = sh("head -c 3000000 /dev/zero >&2; sleep 30");
  spec.output_cap = 1 << 20;
  const ChildResult r = run_child(spec);
  CHECK(r.truncated);
  CHECK_FALSE(r.timed_out);
  CHECK(r.err.size() == spec.output_cap);
  CHECK(r.elapsed < 10s);  // its sleep 30 did not run out: a hang bound, not a speed figure
}

TEST_CASE("output exactly at the cap is not truncated") {
  ChildSpec spec;
  spec.argv = {"head", "-c", "65536", "/dev/zero"};
  spec.output_cap = 65536;
  const ChildResult r = run_child(spec);
  CHECK(r.ok());
  CHECK_FALSE(r.truncated);
  CHECK(r.out.size() == 65536);
}

TEST_CASE("a child filling stderr while writing stdout does not deadlock") {
  // 2 MiB to stderr before any stdout: far beyond a pipe buffer, so a reader that waited on
  // stdout first would hang until the deadline.
  ChildSpec spec = sh("head -c 2000000 /dev/zero | tr '\\0' e >&2; echo out; "
                      "head -c 2000000 /dev/zero | tr '\\0' o");
  spec.deadline = 10s;
  const ChildResult r = run_child(spec);
  CHECK(r.ok());
  CHECK_FALSE(r.timed_out);
  CHECK(r.err.size() == 2000000);
  CHECK(r.out.size() == 2000004);
  CHECK(r.out.substr(0, 4) == "out\n");
}
