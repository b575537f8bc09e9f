#pragma once
// One exec over a WebSocket to the API server through the kubectl proxy's Unix socket
// (v5.channel.k8s.io, v4 when the server offers no v5), left behind as kubectl exec would
// leave it: the same exit code, the same last stderr line, the same deadline, cap and
// interrupt handling as exec::run_child, so one classifier reads both transports.

#include "exec/child.hpp"
#include "stream/request.hpp"

#include <chrono>
#include <cstddef>
#include <string>

namespace icheck::stream {

struct StreamLimits {
  std::chrono::milliseconds deadline = exec::kDefaultDeadline;  // from the connect
  std::size_t output_cap = exec::kDefaultOutputCap;             // per stream
};

struct StreamResult {
  exec::ChildResult result;  // as `kubectl exec` would have left it
  // The transport was refused before anything ran (no proxy, its filter, no WebSocket):
  // `why` says what came back; the caller runs kubectl exec instead.
  bool refused = false;
  std::string why;
  // Refused by a failure on the way (the proxy's 5xx, a connection dropped during the upgrade),
  // not by policy: worth kubectl exec for this one, not a reason to give up the proxy.
  bool transient = false;
  std::string protocol;  // the channel protocol the server chose
  // The stream broke before the exit status and before any byte of output: nothing ran that
  // anyone saw; a read-only command may be run again.
  bool broke_early = false;
  // The local kubectl proxy itself stopped answering (a stream silent 5 s, then no answer to
  // a request of its own): the caller stops using it. `refused` when it happened before the
  // upgrade's answer (nothing ran).
  bool proxy_stopped = false;
};

// Never throws. An interrupt (exec/interrupt.hpp) ends the stream like a killed kubectl.
StreamResult ws_exec(const std::string& socket_path, const ExecTarget& target,
                     const StreamLimits& limits);

}  // namespace icheck::stream
