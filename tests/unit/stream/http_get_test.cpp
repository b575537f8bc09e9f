#include "stream/http_get.hpp"

#include <cstdlib>
#include <doctest/doctest.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

using namespace icheck::stream;

namespace {

// A one-connection server on a Unix socket: reads the request head, answers `reply` (or
// nothing, holding the connection, when it is empty), and keeps what it was asked.
class OneShot {
public:
  explicit OneShot(std::string reply) : m_reply(std::move(reply)) {
    char dir[] = "/tmp/http-get-test-XXXXXX";
    REQUIRE(::mkdtemp(dir) != nullptr);
    m_dir = dir;
    m_path = m_dir + "/sock";
    m_listen = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    m_path.copy(addr.sun_path, sizeof addr.sun_path - 1);
    REQUIRE(::bind(m_listen, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(::listen(m_listen, 1) == 0);
    m_thread = std::thread([this] { serve(); });
  }
  ~OneShot() {
    m_thread.join();
    ::close(m_listen);
    ::unlink(m_path.c_str());
    ::rmdir(m_dir.c_str());
  }
  const std::string& path() const { return m_path; }
  std::string request;

private:
  void serve() {
    const int fd = ::accept(m_listen, nullptr, nullptr);
    char buffer[4096];
    while (request.find("\r\n\r\n") == std::string::npos) {
      const auto n = ::read(fd, buffer, sizeof buffer);
      if (n <= 0)
        break;
      request.append(buffer, static_cast<std::size_t>(n));
    }
    if (m_reply.empty()) {
      while (::read(fd, buffer, sizeof buffer) > 0) {  // until the client gives up
      }
    } else {
      (void)!::write(fd, m_reply.data(), m_reply.size());
    }
    ::close(fd);
  }

  std::string m_reply, m_dir, m_path;
  int m_listen = -1;
  std::thread m_thread;
};

std::string answer(int code, const std::string& body) {
  return "HTTP/1.1 " + std::to_string(code) +
         " X\r\nContent-Type: text/plain\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n\r\n" + body;
}

}  // namespace

TEST_CASE("http get: the status and body come back / the request is a GET of the target") {
  OneShot server(answer(200, "2026-12-03T10:00:00Z line one\n"));
  const auto r = http_get(server.path(), "/api/v1/namespaces/d/pods/p/log?tailLines=5", {});
  CHECK(r.status == 200);
  CHECK(r.body == "2026-12-03T10:00:00Z line one\n");
  CHECK(r.error.empty());
  CHECK_FALSE(r.truncated);
  CHECK(server.request.rfind("GET /api/v1/namespaces/d/pods/p/log?tailLines=5 HTTP/1.1\r\n", 0) ==
        0);
}

TEST_CASE("http get: a 403 is an answer, with its body") {
  OneShot server(answer(403, R"({"kind":"Status","reason":"Forbidden"})"));
  const auto r = http_get(server.path(), "/x", {});
  CHECK(r.status == 403);
  CHECK(r.body.find("Forbidden") != std::string::npos);
}

TEST_CASE("http get: a chunked body past the cap is cut and said") {
  const std::string chunk(300, 'a');
  OneShot server("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n12c\r\n" + chunk +
                 "\r\n12c\r\n" + chunk + "\r\n0\r\n\r\n");
  GetLimits limits;
  limits.body_cap = 400;
  const auto r = http_get(server.path(), "/x", limits);
  CHECK(r.status == 200);
  CHECK(r.truncated);
  CHECK(r.body.size() <= 400);
}

TEST_CASE("http get: no answer ends at the deadline / no proxy is an error, not a hang") {
  OneShot server("");
  GetLimits limits;
  limits.deadline = std::chrono::milliseconds(300);
  const auto r = http_get(server.path(), "/x", limits);
  CHECK(r.timed_out);
  CHECK(r.status == 0);
  CHECK_FALSE(r.error.empty());
  const auto none = http_get("/nonexistent/icheck/sock", "/x", {});
  CHECK(none.status == 0);
  CHECK(none.error.rfind("cannot connect to the kubectl proxy", 0) == 0);
}
