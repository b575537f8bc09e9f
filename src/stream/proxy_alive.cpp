#include "stream/proxy_alive.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/write.hpp>
#include <string_view>

namespace icheck::stream {

namespace asio = boost::asio;

bool proxy_answers(const std::string& socket_path) {
  asio::io_context io;
  asio::local::stream_protocol::socket s(io);
  boost::system::error_code ec;
  s.connect(asio::local::stream_protocol::endpoint(socket_path), ec);
  if (ec)
    return false;
  static constexpr std::string_view ask =
      "GET /icheck-liveness HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
  asio::async_write(s, asio::buffer(ask), [](boost::system::error_code, std::size_t) {});
  char byte = 0;
  bool answered = false;
  s.async_read_some(asio::buffer(&byte, 1),
                    [&](boost::system::error_code e, std::size_t n) { answered = !e && n > 0; });
  io.run_for(kProxyAnswer);
  return answered;
}

std::string proxy_stopped_words() {
  return "the local kubectl proxy stopped answering (nothing within " +
         std::to_string(kProxyAnswer.count() / 1000) + " s)";
}

}  // namespace icheck::stream
