#pragma once
// File descriptors for the child runner (internal to exec/). Every descriptor is created
// close-on-exec, so children spawned concurrently by other threads never inherit another
// child's pipe: an inherited write end would hold that pipe open and delay its EOF.

#include <sys/types.h>

#include <string>
#include <utility>

#include "util/expected.hpp"

namespace icheck::exec {

class UniqueFd {
public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : m_fd(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const { return m_fd; }
  bool valid() const { return m_fd >= 0; }
  int release() { return std::exchange(m_fd, -1); }
  void reset();

private:
  int m_fd = -1;
};

struct Pipe {
  UniqueFd read;
  UniqueFd write;
};

// A close-on-exec pipe whose ends are both >= 3, so binding one onto 0/1/2 in the child is a
// real dup2 (dup2 of a descriptor onto itself would keep close-on-exec set).
Expected<Pipe> make_pipe();

// /dev/null for reading, close-on-exec, >= 3.
Expected<UniqueFd> open_dev_null();

// A pidfd (Linux >= 5.3) that becomes readable when the process exits; invalid if unsupported.
UniqueFd open_pidfd(pid_t pid);

// strerror(errno) as a std::string, thread-safe.
std::string errno_text(int err);

}  // namespace icheck::exec
