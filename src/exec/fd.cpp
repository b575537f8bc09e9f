#include "exec/fd.hpp"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace icheck::exec {

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    reset();
    m_fd = std::exchange(other.m_fd, -1);
  }
  return *this;
}

void UniqueFd::reset() {
  if (m_fd >= 0) ::close(m_fd);
  m_fd = -1;
}

std::string errno_text(int err) {
  return std::system_category().message(err);
}

namespace {

// Moves a descriptor to >= 3 (keeping close-on-exec) when it landed on 0..2 because the
// parent runs with a standard stream closed.
Expected<UniqueFd> above_stdio(int fd) {
  UniqueFd owned(fd);
  if (fd > 2) return owned;
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (moved < 0) return Error{"fcntl(F_DUPFD_CLOEXEC): " + errno_text(errno)};
  return UniqueFd(moved);
}

}  // namespace

Expected<Pipe> make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Error{"pipe2: " + errno_text(errno)};
  auto read_end = above_stdio(fds[0]);
  auto write_end = above_stdio(fds[1]);
  if (!read_end) return read_end.error();
  if (!write_end) return write_end.error();
  return Pipe{std::move(*read_end), std::move(*write_end)};
}

Expected<UniqueFd> open_dev_null() {
  const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{"open /dev/null: " + errno_text(errno)};
  return above_stdio(fd);
}

UniqueFd open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  // pidfd_open always sets close-on-exec.
  return UniqueFd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
#else
  (void)pid;
  return UniqueFd();
#endif
}

}  // namespace icheck::exec
