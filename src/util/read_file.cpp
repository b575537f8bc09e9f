#include "util/read_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace icheck {
namespace {

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode))
    return "a folder";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a plain file";
}

std::string mib(std::size_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

Error cannot_read(int err) {
  return Error{std::string("cannot be read (") + std::strerror(err) + ")"};
}

class Fd {
public:
  explicit Fd(int fd) : m_fd(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (m_fd >= 0)
      ::close(m_fd);
  }
  int get() const { return m_fd; }

private:
  int m_fd;
};

Error too_large(std::size_t cap, std::string_view what) {
  return Error{"larger than the " + mib(cap) + " " + std::string(what) + " may be"};
}

Expected<std::string> read_capped(int fd, std::size_t cap, std::string_view what) {
  std::string text;
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return cannot_read(errno);
    if (n == 0)
      return text;
    if (text.size() + static_cast<std::size_t>(n) > cap)  // grew while being read
      return too_large(cap, what);
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace

Expected<std::string> read_regular_file(const std::filesystem::path& path, std::size_t cap,
                                        std::string_view what) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  const Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0)
    return cannot_read(errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0)
    return cannot_read(errno);
  if (!S_ISREG(st.st_mode))
    return Error{"not a regular file (" + kind_of(st.st_mode) + ")"};
  if (static_cast<std::size_t>(st.st_size) > cap)
    return Error{too_large(cap, what).message + " (" + mib(static_cast<std::size_t>(st.st_size)) +
                 ")"};
  return read_capped(fd.get(), cap, what);
}

}  // namespace icheck
