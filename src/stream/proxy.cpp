#include "stream/proxy.hpp"

#include "stream/request.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sys/un.h>
#include <unistd.h>

namespace icheck::stream {
namespace {

using Clock = std::chrono::steady_clock;

// $1: the private directory; the rest: the kubectl proxy argv. The proxy gets the output pipe
// and /dev/null for stdin; this sh keeps only the held pipe, and when it reads EOF there (the
// plugin closed it, or died) it stops the proxy and removes the socket and the directory.
constexpr const char* kWatcher = "dir=$1; shift; "
                                 "\"$@\" </dev/null & p=$!; "
                                 "exec >/dev/null 2>&1; "
                                 "while read -r _; do :; done; "
                                 "kill -TERM $p; wait $p; "
                                 "rm -f \"$dir/sock\"; rmdir \"$dir\"";

constexpr std::size_t kStartOutputCap = 16 * 1024;
// A proxy that exited has its last words on the pipe; one that hangs or was interrupted is not
// waited for (its group is killed at once).
constexpr std::chrono::milliseconds kExitGrace{2000};

// Every method but GET (a Go regexp, RE2: no look-ahead; methods are case-sensitive, RFC 9110,
// so "get" and "Delete" are refused too). No comma: kubectl splits the flag's value at commas.
constexpr std::string_view kNotGet = "^(|[^G].*|G|G[^E].*|GE|GE[^T].*|GET.+)$";

// A directory only this user can enter (mkdtemp: mode 0700) whose socket path fits sun_path.
Expected<std::string> private_dir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string base = tmp && *tmp ? tmp : "/tmp";
  if (base.size() + 32 > sizeof(sockaddr_un{}.sun_path))
    base = "/tmp";
  std::string pattern = base + "/icheck-proxy-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    return Error{"cannot create a private directory in " + base};
  return pattern;
}

std::string last_line(const std::string& text) {
  auto end = text.find_last_not_of("\r\n");
  if (end == std::string::npos)
    return {};
  auto start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - start);
}

std::string seconds(std::chrono::milliseconds ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(ms.count()) / 1000.0);
  return text;
}

void remove_dir(const std::string& dir) {
  ::unlink((dir + "/sock").c_str());
  ::rmdir(dir.c_str());
}

}  // namespace

std::vector<std::string> proxy_args(const std::string& socket_path,
                                    const std::string& accept_paths) {
  return {"proxy", "--unix-socket=" + socket_path, "--accept-paths=" + accept_paths,
          // The default minus exec: whatever the accept pattern, attach stays shut.
          "--reject-paths=^/api/.*/pods/.*/attach", "--reject-methods=" + std::string(kNotGet),
          "--accept-hosts=^localhost$"};
}

Expected<std::unique_ptr<Proxy>> Proxy::start(const ProxyConfig& config) {
  const auto accept = exec_accept_paths(config.namespaces);
  if (!accept)
    return Error{"no namespace to allow exec in"};
  auto dir = private_dir();
  if (!dir)
    return dir.error();
  exec::ChildSpec spec;
  spec.argv = {"/bin/sh", "-c", kWatcher, "icheck-proxy", *dir};
  spec.argv.insert(spec.argv.end(), config.kubectl_base.begin(), config.kubectl_base.end());
  const auto args = proxy_args(*dir + "/sock", *accept);
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  auto child = exec::start_background(spec);
  if (!child) {
    remove_dir(*dir);
    return child.error();
  }
  std::string line, seen;
  const auto until = Clock::now() + config.start_deadline;
  auto got = exec::LineWait::line;
  while ((got = exec::read_line_until(child->output_fd(), until, line, seen, kStartOutputCap)) ==
         exec::LineWait::line) {
    if (line.rfind("Starting to serve on", 0) == 0)
      return std::unique_ptr<Proxy>(new Proxy(*dir, std::move(*child)));
  }
  child->stop(got == exec::LineWait::ended ? kExitGrace : std::chrono::milliseconds(0));
  remove_dir(*dir);
  if (got == exec::LineWait::interrupted)
    return Error{"interrupted"};
  const auto said = last_line(seen);
  if (got == exec::LineWait::timed_out)
    return Error{"kubectl proxy did not say it serves within " + seconds(config.start_deadline) +
                 (said.empty() ? std::string() : " (its last line: " + said + ")")};
  return Error{said.empty() ? "kubectl proxy did not start" : "kubectl proxy: " + said};
}

Proxy::Proxy(std::string dir, exec::BackgroundChild child)
    : m_dir(std::move(dir)), m_socket(m_dir + "/sock"), m_child(std::move(child)) {
  m_drain = std::thread([fd = m_child.take_output()]() {
    char buffer[4096];
    for (;;) {
      const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
      if (n == 0 || (n < 0 && errno != EINTR))
        return;
    }
  });
}

Proxy::~Proxy() {
  m_child.stop();
  if (m_drain.joinable())
    m_drain.join();
  remove_dir(m_dir);
}

}  // namespace icheck::stream
