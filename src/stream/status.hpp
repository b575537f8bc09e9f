#pragma once
// Reading what the API server says about an exec, in the words kubectl prints for it, so that
// kube::classify_exec_failure reads both transports alike (shared/reference/kubectl.md §3.2,
// §3.3; client-go tools/remotecommand v4.go errorDecoderV4): pure, no I/O.

#include <string>
#include <string_view>

namespace icheck::stream {

struct StatusEnd {
  int exit_code = 0;
  std::string stderr_note;  // what kubectl prints last on stderr ("" for success)
};

// The status channel's content at the stream's end. Empty (no status sent) is success, as in
// kubectl; NonZeroExitCode gives the remote exit code and "command terminated with exit code
// N"; any other failure exit 1 and "error: MESSAGE".
StatusEnd status_end(std::string_view status_json);

// The status channel holds one whole JSON object: the server has said how the exec ended, and
// nothing the connection does afterwards (an abnormal close, EOF, a reset) changes that.
bool status_complete(std::string_view status_json);

// A refused upgrade (an HTTP answer other than 101).
struct Declined {
  // The API server answered for the pod, as kubectl would end too: exit 1 and this line
  // ("Error from server (Reason): message"). Otherwise the transport itself was refused (the
  // proxy's filter, no WebSocket, an old server asking the get verb): use kubectl exec instead.
  bool final = false;
  std::string line;  // final: kubectl's line; otherwise: why, for the one fallback notice
};

Declined declined(int http_status, std::string_view body);

}  // namespace icheck::stream
