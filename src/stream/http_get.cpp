#include "stream/http_get.hpp"

#include "exec/interrupt.hpp"
#include "stream/proxy_alive.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <exception>

namespace icheck::stream {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using Clock = std::chrono::steady_clock;
using Socket = asio::local::stream_protocol::socket;

constexpr std::chrono::milliseconds kTick{50};

class Get {
public:
  Get(const GetLimits& limits, GetResult& out)
      : m_out(out), m_cap(limits.body_cap), m_deadline(Clock::now() + limits.deadline) {}

  void run(const std::string& socket_path, const std::string& target) {
    m_socket_path = socket_path;
    m_heard = Clock::now();
    boost::system::error_code ec;
    m_socket.connect(asio::local::stream_protocol::endpoint(socket_path), ec);
    if (ec) {
      m_out.error = "cannot connect to the kubectl proxy: " + ec.message();
      return;
    }
    m_request = {http::verb::get, target, 11};
    m_request.set(http::field::host, "localhost");
    m_request.set(http::field::user_agent, "kubectl-dynamo_icheck");
    m_request.set(http::field::accept, "application/json, */*");
    m_request.set(http::field::connection, "close");
    // The cap plus room: a longer body is cut at the cap below, not refused by the parser.
    m_parser.body_limit(m_cap + 1);
    m_parser.header_limit(64 * 1024);
    http::async_write(m_socket, m_request, [this](boost::system::error_code e, std::size_t) {
      if (e)
        return finish("cannot send the request: " + e.message());
      http::async_read(m_socket, m_buffer, m_parser,
                       [this](boost::system::error_code r, std::size_t) { on_read(r); });
    });
    tick();
    m_io.run();
  }

private:
  void on_read(boost::system::error_code ec) {
    if (m_ended)
      return;
    if (ec == http::error::body_limit || (!ec && m_parser.get().body().size() > m_cap)) {
      m_out.truncated = true;
      ec = {};
    }
    if (ec && !m_parser.is_header_done())
      return finish("no answer from the kubectl proxy: " + ec.message());
    m_out.status = static_cast<int>(m_parser.get().result_int());
    m_out.body = std::move(m_parser.get().body());
    if (m_out.body.size() > m_cap) {
      m_out.body.resize(m_cap);
      m_out.truncated = true;
    }
    if (ec && !m_out.truncated)
      m_out.error = "the answer ended early: " + ec.message();
    finish("");
  }

  void tick() {
    m_tick.expires_after(kTick);
    m_tick.async_wait([this](boost::system::error_code) {
      if (m_ended)
        return;
      if (exec::interrupt_signal() != 0) {
        m_out.interrupted = true;
        return finish("interrupted");
      }
      const auto now = Clock::now();
      if (now >= m_deadline) {
        m_out.timed_out = true;
        return finish("no answer before the deadline");
      }
      // Progress: the header, then the body's growth. Silence makes us ask the proxy itself.
      const auto got = m_parser.is_header_done() ? m_parser.get().body().size() + 1 : 0;
      if (got != m_got) {
        m_got = got;
        m_heard = now;
      } else if (now - m_heard >= kProxySilence) {
        if (!proxy_answers(m_socket_path)) {
          m_out.proxy_stopped = true;
          return finish(proxy_stopped_words());
        }
        m_heard = Clock::now();
      }
      tick();
    });
  }

  void finish(const std::string& why) {
    if (!why.empty() && m_out.error.empty())
      m_out.error = why;
    m_ended = true;
    boost::system::error_code ignored;
    m_socket.close(ignored);
    m_tick.cancel();
  }

  GetResult& m_out;
  std::size_t m_cap;
  Clock::time_point m_deadline;
  asio::io_context m_io;
  Socket m_socket{m_io};
  asio::steady_timer m_tick{m_io};
  http::request<http::empty_body> m_request;
  http::response_parser<http::string_body> m_parser;
  beast::flat_buffer m_buffer;
  bool m_ended = false;
  std::string m_socket_path;
  Clock::time_point m_heard;
  std::size_t m_got = 0;  // 0: no header yet; else 1 + the body's bytes so far
};

}  // namespace

GetResult http_get(const std::string& socket_path, const std::string& target,
                   const GetLimits& limits) {
  GetResult out;
  if (exec::interrupt_signal() != 0) {
    out.interrupted = true;
    out.error = "interrupted";
    return out;
  }
  try {
    Get(limits, out).run(socket_path, target);
  } catch (const std::exception& e) {
    out.error = std::string("internal error: ") + e.what();
  }
  return out;
}

}  // namespace icheck::stream
