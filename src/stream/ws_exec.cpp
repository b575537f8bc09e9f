#include "stream/ws_exec.hpp"

#include "exec/interrupt.hpp"
#include "stream/proxy_alive.hpp"
#include "stream/status.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>
#include <csignal>
#include <exception>

namespace icheck::stream {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using Clock = std::chrono::steady_clock;
using Socket = asio::local::stream_protocol::socket;

constexpr std::chrono::milliseconds kTick{50};
// After the stdin close signal, how long the remote side gets before the connection goes
// (exec::kKillGrace for a kubectl child).
constexpr std::chrono::milliseconds kCloseGrace{200};
constexpr std::size_t kStatusCap = 64 * 1024;
// After the status, how long the server gets to close the stream before the exec ends anyway.
constexpr std::chrono::milliseconds kStatusSettle{2'000};

class Exchange {
public:
  Exchange(const ExecTarget& target, const StreamLimits& limits, StreamResult& out)
      : m_target(target), m_limits(limits), m_out(out), m_deadline(Clock::now() + limits.deadline) {
  }

  void run(const std::string& socket_path) {
    m_socket_path = socket_path;
    m_heard = Clock::now();
    boost::system::error_code ec;
    m_ws.next_layer().connect(asio::local::stream_protocol::endpoint(socket_path), ec);
    if (ec) {
      refuse("cannot connect to the kubectl proxy: " + ec.message());
      return;
    }
    m_ws.set_option(websocket::stream_base::decorator([](websocket::request_type& req) {
      req.set(beast::http::field::sec_websocket_protocol,
              std::string(kProtocolV5) + ", " + std::string(kProtocolV4));
      req.set(beast::http::field::user_agent, "kubectl-dynamo_icheck");
    }));
    m_ws.read_message_max(m_limits.output_cap + 64 * 1024);
    m_ws.async_handshake(m_response, "localhost", exec_path(m_target),
                         [this](boost::system::error_code e) { on_handshake(e); });
    tick();
    m_io.run();
  }

private:
  void refuse(std::string why) {
    m_out.refused = true;
    m_out.why = std::move(why);
    m_ended = true;
  }

  void on_handshake(boost::system::error_code ec) {
    m_heard = Clock::now();
    if (m_ended)
      return;
    if (ec) {
      const int code = m_response.result_int();
      if (code != 0 && code != 101) {
        const auto d = declined(code, m_response.body());
        m_out.transient = code >= 500;
        if (!d.final)
          return finish_refused(d.line);
        m_out.result.exit_code = 1;
        m_out.result.err = d.line + "\n";
        return finish();
      }
      m_out.transient = true;
      return finish_refused("WebSocket upgrade failed: " + ec.message());
    }
    m_out.protocol = std::string(m_response[beast::http::field::sec_websocket_protocol]);
    if (m_out.protocol != kProtocolV5 && m_out.protocol != kProtocolV4)
      return finish_refused("the server chose no channel protocol (\"" + m_out.protocol + "\")");
    m_open = true;
    read();
  }

  void read() {
    m_ws.async_read(m_buffer, [this](boost::system::error_code e, std::size_t) { on_read(e); });
  }

  void on_read(boost::system::error_code ec) {
    m_heard = Clock::now();
    if (m_ended)
      return;
    // Once the status has arrived the exec has ended: a close with any code, EOF without a
    // close frame, or EPIPE/ECONNRESET while answering the server's close changes nothing.
    if (ec && ec != websocket::error::message_too_big && m_status_done)
      return end_with_status();
    if (ec == websocket::error::closed) {
      if (m_ws.reason().code != websocket::close_code::normal)
        return broken("websocket: close " + std::to_string(m_ws.reason().code));
      return end_with_status();  // no status sent: success, as kubectl reads it
    }
    if (ec == websocket::error::message_too_big) {  // one frame past the cap: cut there too
      m_out.result.truncated = true;
      return stop();
    }
    if (ec)
      return broken("websocket: close 1006 (abnormal closure): " + ec.message());
    const auto data = m_buffer.cdata();
    const auto* bytes = static_cast<const char*>(data.data());
    if (m_ws.got_binary() && data.size() > 0)
      take(static_cast<unsigned char>(bytes[0]), std::string_view(bytes + 1, data.size() - 1));
    m_buffer.consume(m_buffer.size());
    if (!m_ended)
      read();
  }

  void end_with_status() {
    const auto end = status_end(m_status);
    m_out.result.exit_code = end.exit_code;
    m_out.result.err += end.stderr_note;
    finish();
  }

  // A channel's bytes: stdout and stderr up to the cap (past it the exec is stopped, like a
  // kubectl killed at the cap), the status kept for the end.
  void take(unsigned char channel, std::string_view payload) {
    if (channel == kStatus) {
      m_status.append(payload.substr(0, kStatusCap - std::min(kStatusCap, m_status.size())));
      if (!m_status_done && status_complete(m_status)) {
        m_status_done = true;
        m_settle_at = Clock::now() + kStatusSettle;
      }
      return;
    }
    if (channel != kStdout && channel != kStderr)
      return;
    auto& to = channel == kStdout ? m_out.result.out : m_out.result.err;
    const auto room = m_limits.output_cap - std::min(m_limits.output_cap, to.size());
    to.append(payload.substr(0, room));
    if (payload.size() > room) {
      m_out.result.truncated = true;
      stop();
    }
  }

  // The stream ended before the status: what arrived is kept, and the pod says the stream broke
  // (kubectl's words). Before any byte, a read-only probe may be run again (PodExec).
  void broken(const std::string& why) {
    m_out.broke_early = m_out.result.out.empty() && m_out.result.err.empty();
    m_out.result.exit_code = 1;
    m_out.result.err += "error: error reading from error stream: next reader: " + why + "\n";
    finish();
  }

  void tick() {
    m_tick.expires_after(kTick);
    m_tick.async_wait([this](boost::system::error_code) {
      if (m_ended)
        return;
      const auto now = Clock::now();
      if (m_closing_at && now >= *m_closing_at)
        return finish();
      if (m_status_done && !m_closing_at && now >= m_settle_at)
        return end_with_status();  // the server said how it ended but keeps the stream open
      if (!m_closing_at && now - m_heard >= kProxySilence) {
        if (!proxy_answers(m_socket_path))
          return proxy_stopped();
        m_heard = Clock::now();
      }
      if (!m_closing_at && exec::interrupt_signal() != 0) {
        m_out.result.interrupted = true;
        stop();
      } else if (!m_closing_at && now >= m_deadline) {
        m_out.result.timed_out = true;
        stop();
      }
      if (!m_ended)
        tick();
    });
  }

  // Ends a running exec early (deadline, cap, interrupt): with stdin open on v5 the close
  // signal first, the connection a moment later; the remote side then sees the same as when
  // a kubectl child is killed.
  void stop() {
    m_out.result.exit_code = -1;
    m_out.result.signal = SIGTERM;
    if (m_closing_at)
      return;
    if (m_open && m_target.stdin && m_out.protocol == kProtocolV5) {
      m_close_signal = {static_cast<char>(kClose), static_cast<char>(kStdin)};
      m_ws.binary(true);
      m_ws.async_write(asio::buffer(m_close_signal), [](boost::system::error_code, std::size_t) {});
      m_closing_at = Clock::now() + kCloseGrace;
      return;
    }
    finish();
  }

  // The local proxy no longer answers at all. Before the upgrade's answer nothing ran: the
  // transport refuses and the caller uses kubectl exec; afterwards the stream is broken here,
  // saying why, and the caller uses kubectl exec for the pods still to come.
  void proxy_stopped() {
    const std::string why = proxy_stopped_words();
    m_out.proxy_stopped = true;
    if (!m_open)
      return finish_refused(why);
    m_out.why = why;
    m_out.broke_early = m_out.result.out.empty() && m_out.result.err.empty();
    m_out.result.exit_code = 1;
    m_out.result.err += "error: " + why + "\n";
    finish();
  }

  void finish_refused(std::string why) {
    refuse(std::move(why));
    close();
  }

  void finish() {
    m_ended = true;
    close();
  }

  void close() {
    boost::system::error_code ignored;
    beast::get_lowest_layer(m_ws).close(ignored);
    m_tick.cancel();
  }

  const ExecTarget& m_target;
  const StreamLimits& m_limits;
  StreamResult& m_out;
  Clock::time_point m_deadline;
  asio::io_context m_io;
  websocket::stream<Socket> m_ws{m_io};
  asio::steady_timer m_tick{m_io};
  websocket::response_type m_response;
  beast::flat_buffer m_buffer;
  std::string m_status;
  std::string m_close_signal;
  std::optional<Clock::time_point> m_closing_at;
  Clock::time_point m_settle_at;
  Clock::time_point m_heard;  // the last answer of any kind from the proxy
  std::string m_socket_path;
  bool m_status_done = false;
  bool m_open = false;
  bool m_ended = false;
};

}  // namespace

StreamResult ws_exec(const std::string& socket_path, const ExecTarget& target,
                     const StreamLimits& limits) {
  StreamResult out;
  const auto start = Clock::now();
  if (exec::interrupt_signal() != 0) {
    out.result.interrupted = true;
    return out;
  }
  try {
    Exchange(target, limits, out).run(socket_path);
  } catch (const std::exception& e) {
    out.result.spawn_error = std::string("internal error: ") + e.what();
  }
  out.result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  return out;
}

}  // namespace icheck::stream
