// ws_exec against a server on a Unix socket that ends the stream each way a real one does
// (issue 27): the polite close handshake; the close frame and then the connection dropped at
// once (the client's close reply meets a closed socket: EPIPE, or EOF); EOF after the status
// without a close frame; an abnormal close code after the status; a status and then silence.
// Frames follow v5.channel.k8s.io (shared/reference/kubectl.md §3.2); the status bodies are
// synthetic, in the shape the kubelet writes.
#include "stream/ws_exec.hpp"
#include "temp_dir.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/websocket.hpp>
#include <doctest/doctest.h>
#include <functional>
#include <string>
#include <thread>

using namespace icheck::stream;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using Socket = asio::local::stream_protocol::socket;
using ServerStream = websocket::stream<Socket>;

namespace {

const std::string kSuccess = R"({"metadata":{},"status":"Success"})";
const std::string kExit3 =
    R"({"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: exit code 3","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}})";

void frame(ServerStream& ws, unsigned char channel, const std::string& payload) {
  ws.binary(true);
  ws.write(asio::buffer(std::string(1, static_cast<char>(channel)) + payload));
}

// A close frame written on the raw socket, so that the server need not wait for the reply.
void raw_close(ServerStream& ws, std::uint16_t code) {
  const char bytes[] = {static_cast<char>(0x88), 2, static_cast<char>(code >> 8),
                        static_cast<char>(code & 0xff)};
  asio::write(ws.next_layer(), asio::buffer(bytes, sizeof bytes));
}

// One exec served on a fresh socket by `serve`, read by ws_exec; returns what it left.
StreamResult exchange(const std::function<void(ServerStream&)>& serve,
                      std::chrono::milliseconds deadline = std::chrono::seconds(20)) {
  icheck::test::TempDir dir;
  const auto path = (dir.path() / "proxy.sock").string();
  asio::io_context io;
  asio::local::stream_protocol::acceptor acceptor(io, asio::local::stream_protocol::endpoint(path));
  std::thread server([&] {
    try {
      Socket socket(io);
      acceptor.accept(socket);
      ServerStream ws(std::move(socket));
      ws.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
        res.set(beast::http::field::sec_websocket_protocol, std::string(kProtocolV5));
      }));
      ws.accept();
      serve(ws);
    } catch (const std::exception&) {
      // the client went first: what it made of that is what the test checks
    }
  });
  const auto result = ws_exec(path, {"ns", "pod-0", "main", {"sh", "-c", "true"}, false},
                              {deadline, std::size_t{1} << 20});
  server.join();
  return result;
}

}  // namespace

TEST_CASE("exec stream: after the status, any ending keeps the result") {
  const std::vector<std::pair<std::string, std::function<void(ServerStream&)>>> endings = {
      {"polite close handshake", [](ServerStream& ws) { ws.close(websocket::close_code::normal); }},
      {"close frame, then the connection dropped at once",
       [](ServerStream& ws) {
         raw_close(ws, 1000);
         ws.next_layer().close();
       }},
      {"EOF after the status, no close frame", [](ServerStream& ws) { ws.next_layer().close(); }},
      {"an abnormal close code after the status",
       [](ServerStream& ws) {
         raw_close(ws, 1011);
         ws.next_layer().close();
       }},
      {"half-close: FIN, then waits for the client to go",
       [](ServerStream& ws) {
         ws.next_layer().shutdown(Socket::shutdown_send);
         char byte;
         boost::system::error_code ec;
         while (!ec)
           ws.next_layer().read_some(asio::buffer(&byte, 1), ec);
       }},
  };
  for (const auto& ending : endings) {
    for (const auto& expected : {std::pair{kSuccess, 0}, std::pair{kExit3, 3}}) {
      // named, not bound: clang 14 (the sanitizer build) cannot capture a structured binding
      const std::string& name = ending.first;
      const auto& end = ending.second;
      const std::string& status = expected.first;
      const int rc = expected.second;
      CAPTURE(name);
      CAPTURE(rc);
      const auto got = exchange([&](ServerStream& ws) {
        frame(ws, kStdout, "facts\n");
        frame(ws, kStderr, "note\n");
        frame(ws, kStatus, status);
        end(ws);
      });
      CHECK_FALSE(got.refused);
      CHECK(got.result.out == "facts\n");
      CHECK(got.result.exit_code == rc);
      CHECK(got.result.err.find("error reading") == std::string::npos);
      CHECK(got.result.err.rfind("note\n", 0) == 0);
      CHECK_FALSE(got.broke_early);
    }
  }
}

TEST_CASE("exec stream: a status and then silence ends the exec, not the deadline") {
  const auto got = exchange(
      [](ServerStream& ws) {
        frame(ws, kStdout, "facts\n");
        frame(ws, kStatus, kSuccess);
        char byte;
        boost::system::error_code ec;
        while (!ec)  // until the client goes
          ws.next_layer().read_some(asio::buffer(&byte, 1), ec);
      },
      std::chrono::seconds(60));
  CHECK(got.result.ok());
  CHECK(got.result.out == "facts\n");
  CHECK_FALSE(got.result.timed_out);
}

TEST_CASE("exec stream: broken before the status keeps what arrived and says it broke") {
  const auto got = exchange([](ServerStream& ws) {
    frame(ws, kStdout, "half of the facts\n");
    ws.next_layer().close();
  });
  CHECK(got.result.out == "half of the facts\n");
  CHECK(got.result.exit_code == 1);
  CHECK(got.result.err.find("error reading from error stream") != std::string::npos);
  CHECK_FALSE(got.broke_early);  // output arrived: the pod ran something; never run again

  const auto abnormal = exchange([](ServerStream& ws) {
    frame(ws, kStdout, "x");
    raw_close(ws, 1011);
    ws.next_layer().close();
  });
  CHECK(abnormal.result.exit_code == 1);
  // close 1011 read, or the close reply's EPIPE first: either way the stream is said to break
  CHECK(abnormal.result.err.find("next reader: websocket: close 10") != std::string::npos);
}

TEST_CASE("exec stream: broken before any byte is marked so a read-only probe may run again") {
  const auto got = exchange([](ServerStream& ws) { ws.next_layer().close(); });
  CHECK(got.broke_early);
  CHECK(got.result.exit_code == 1);
  CHECK_FALSE(got.result.ok());
}

TEST_CASE("exec stream: a normal close without any status is success, as kubectl reads it") {
  const auto got = exchange([](ServerStream& ws) {
    frame(ws, kStdout, "ok\n");
    ws.close(websocket::close_code::normal);
  });
  CHECK(got.result.ok());
  CHECK(got.result.out == "ok\n");
}
