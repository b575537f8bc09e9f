#pragma once
// One plain HTTP/1.1 GET through the kubectl proxy's Unix socket (pods/log, events): kubectl
// keeps the authentication, the plugin reads the answer. Bounded in time and size; never
// throws. The proxy's filter lets through exactly the read paths the run needs
// (request.hpp read_accept_paths).

#include <chrono>
#include <cstddef>
#include <string>

namespace icheck::stream {

struct GetLimits {
  std::chrono::milliseconds deadline{30'000};  // from the connect
  std::size_t body_cap = 1u << 20;             // past it the answer is cut, `truncated` said
};

struct GetResult {
  int status = 0;          // HTTP status; 0 when no answer came
  std::string body;        // up to the cap
  bool truncated = false;  // the body was longer than the cap
  bool timed_out = false;
  bool interrupted = false;
  bool proxy_stopped = false;  // the proxy itself stopped answering (stream/proxy_alive.hpp)
  std::string error;           // why no answer came (connect, read, malformed): "" with an answer
};

// `target`: the path and query, e.g. "/api/v1/namespaces/d/pods/p/log?tailLines=2000".
GetResult http_get(const std::string& socket_path, const std::string& target,
                   const GetLimits& limits);

}  // namespace icheck::stream
