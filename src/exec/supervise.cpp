#include "exec/supervise.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <memory>
#include <string>

#include "exec/interrupt.hpp"

namespace icheck::exec {
namespace {

namespace asio = boost::asio;
using asio::posix::stream_descriptor;

constexpr std::size_t kReadChunk = 64 * 1024;
// Used only where the kernel has no pidfd: how often to look whether the child exited.
constexpr std::chrono::milliseconds kExitPoll{5};
// How often a running child looks whether SIGINT/SIGTERM arrived (a handler can only set a flag).
constexpr std::chrono::milliseconds kInterruptPoll{20};

// Appends at most `cap - out.size()` bytes and keeps the capacity within the cap, so a
// chatty child never costs more memory than the cap. Returns false when bytes were dropped.
bool append_capped(std::string& out, const char* data, std::size_t size, std::size_t cap) {
  const std::size_t room = cap > out.size() ? cap - out.size() : 0;
  const std::size_t take = std::min(room, size);
  if (out.size() + take > out.capacity()) {
    // A fresh string gets exactly the capacity asked for; reserve() on this one could
    // round up to twice its old capacity, past the cap.
    std::string grown;
    grown.reserve(std::min(cap, std::max(out.capacity() * 2, out.size() + take)));
    grown.append(out);
    out.swap(grown);
  }
  out.append(data, take);
  return take == size;
}

// The child exited but is not reaped (WNOWAIT keeps its pid, hence its group id, reserved).
bool has_exited(pid_t pid) {
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0)
    return true;  // nothing left to wait for
  return info.si_pid != 0;
}

class Supervisor {
public:
  Supervisor(Watched& watched, const ChildSpec& spec, ChildResult& result)
      : m_pgid(watched.pgid),
        m_spec(spec),
        m_result(result),
        m_out{stream_descriptor(m_io), &result.out, std::make_unique<char[]>(kReadChunk)},
        m_err{stream_descriptor(m_io), &result.err, std::make_unique<char[]>(kReadChunk)},
        m_exit_watch(m_io),
        m_deadline(m_io),
        m_grace(m_io),
        m_drain(m_io),
        m_interrupt_poll(m_io) {
    adopt(m_out.descriptor, watched.out);
    adopt(m_err.descriptor, watched.err);
  }

  void run() {
    read(m_out);
    read(m_err);
    watch_exit();
    watch_interrupt();
    if (m_spec.deadline.count() > 0) {
      m_deadline.expires_after(m_spec.deadline);
      m_deadline.async_wait([this](auto ec) {
        if (ec || m_exited) return;
        m_result.timed_out = true;
        kill_group();
      });
    }
    m_io.run();
  }

private:
  struct Stream {
    stream_descriptor descriptor;
    std::string* sink;
    std::unique_ptr<char[]> buffer;
  };

  // The descriptor passes to asio only if asio accepts it; otherwise `fd` still closes it.
  static void adopt(stream_descriptor& descriptor, UniqueFd& fd) {
    boost::system::error_code ec;
    descriptor.assign(fd.get(), ec);
    if (!ec) fd.release();
  }

  void read(Stream& stream) {
    if (!stream.descriptor.is_open()) return;
    stream.descriptor.async_read_some(
        asio::buffer(stream.buffer.get(), kReadChunk), [this, &stream](auto ec, std::size_t n) {
          if (ec) return close(stream);
          if (!append_capped(*stream.sink, stream.buffer.get(), n, m_spec.output_cap)) {
            m_result.truncated = true;
            kill_group();
            return close(stream);
          }
          read(stream);
        });
  }

  void close(Stream& stream) {
    boost::system::error_code ec;
    stream.descriptor.close(ec);
    finish_if_done();
  }

  void watch_interrupt() {
    if (m_exited) return;
    if (interrupt_signal() != 0) {
      m_result.interrupted = true;
      return kill_group();
    }
    m_interrupt_poll.expires_after(kInterruptPoll);
    m_interrupt_poll.async_wait([this](auto ec) {
      if (!ec) watch_interrupt();
    });
  }

  // A pidfd turns readable when the child exits; without one, poll for it.
  void watch_exit() {
    UniqueFd pidfd = open_pidfd(m_pgid);
    if (pidfd.valid()) adopt(m_exit_watch, pidfd);
    if (m_exit_watch.is_open()) {
      m_exit_watch.async_wait(stream_descriptor::wait_read, [this](auto ec) {
        if (!ec) return on_exit();
        if (ec != asio::error::operation_aborted) poll_exit();
      });
      return;
    }
    poll_exit();
  }

  void poll_exit() {
    if (has_exited(m_pgid)) return on_exit();
    m_drain.expires_after(kExitPoll);
    m_drain.async_wait([this](auto ec) {
      if (!ec) poll_exit();
    });
  }

  void on_exit() {
    m_exited = true;
    m_deadline.cancel();
    m_interrupt_poll.cancel();
    if (finish_if_done()) return;
    m_drain.expires_after(kDrainAfterExit);
    m_drain.async_wait([this](auto ec) {
      if (ec) return;
      // Descendants still hold the pipes: stop listening to them.
      boost::system::error_code ignored;
      m_out.descriptor.close(ignored);
      m_err.descriptor.close(ignored);
      finish_if_done();
    });
  }

  bool finish_if_done() {
    if (!m_exited || m_out.descriptor.is_open() || m_err.descriptor.is_open()) return false;
    // Leftover descendants of a finished child are killed too: a probe leaves nothing behind.
    // The leader is a zombie here, so its group id still names this group.
    ::kill(-m_pgid, SIGKILL);
    m_io.stop();
    return true;
  }

  void kill_group() {
    if (m_killing) return;
    m_killing = true;
    ::kill(-m_pgid, SIGTERM);
    m_grace.expires_after(kKillGrace);
    m_grace.async_wait([this](auto ec) {
      if (!ec) ::kill(-m_pgid, SIGKILL);
    });
  }

  asio::io_context m_io;
  pid_t m_pgid;
  const ChildSpec& m_spec;
  ChildResult& m_result;
  Stream m_out;
  Stream m_err;
  stream_descriptor m_exit_watch;
  asio::steady_timer m_deadline;
  asio::steady_timer m_grace;
  asio::steady_timer m_drain;
  asio::steady_timer m_interrupt_poll;
  bool m_exited = false;
  bool m_killing = false;
};

}  // namespace

void supervise(Watched watched, const ChildSpec& spec, ChildResult& result) {
  Supervisor supervisor(watched, spec, result);
  supervisor.run();
}

}  // namespace icheck::exec
