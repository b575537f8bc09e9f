#pragma once
// What one exec over the API server's WebSocket looks like on the wire, and what the kubectl
// proxy must let through for it (shared/reference/kubectl.md §3.2, §3.4): pure text, no I/O.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::stream {

inline constexpr std::string_view kProtocolV5 = "v5.channel.k8s.io";
inline constexpr std::string_view kProtocolV4 = "v4.channel.k8s.io";

// Channel ids of v4/v5.channel.k8s.io; kClose (v5 only) is followed by the id it half-closes.
enum Channel : unsigned char {
  kStdin = 0,
  kStdout = 1,
  kStderr = 2,
  kStatus = 3,
  kResize = 4,
  kClose = 255
};

struct ExecTarget {
  std::string namespace_;
  std::string pod;
  std::string container;             // empty: the API server picks the pod's only container
  std::vector<std::string> command;  // argv run in the container
  bool stdin = false;                // open the stdin channel (held open, never written)
};

// RFC 3986 percent-encoding of everything but the unreserved characters.
std::string percent_encode(std::string_view text);

// A query value as Go's url.Values encodes it (kubectl's requests): percent_encode with a space
// as '+'. The probe script is mostly shell text, so this keeps its exec request line about a
// fifth shorter (41 KB of script: 56 KB, not 73 KB), under the 64 KiB request-line limits of
// common HTTP servers and proxies that %20 crossed.
std::string query_encode(std::string_view text);

// "/api/v1/namespaces/NS/pods/POD/exec?command=..&container=C&stdin=true&stdout=true&stderr=true",
// the request kubectl itself sends (stdin only when asked).
std::string exec_path(const ExecTarget& target);

// A Kubernetes namespace name (an RFC 1123 DNS label): nothing in it needs quoting in a regexp.
bool is_namespace_name(std::string_view name);

// --accept-paths for `kubectl proxy`: of these namespaces, the pods/exec path, a pod's log and
// the events list (GET only: the proxy rejects every other method), and nothing else.
// nullopt when a name is not a namespace name (then no proxy is started).
std::optional<std::string> exec_accept_paths(const std::vector<std::string>& namespaces);

// What a pod's log read asks for (GET pods/log): never follow, always bounded.
struct LogQuery {
  std::string namespace_;
  std::string pod;
  std::string container;
  bool previous = false;  // the container's previous instance (it restarted)
  long tail_lines = 2000;
  long limit_bytes = 1 << 20;
};

// "/api/v1/namespaces/NS/pods/POD/log?container=C&tailLines=N&limitBytes=B&timestamps=true"
// (&previous=true when asked).
std::string log_path(const LogQuery& query);

// "/api/v1/namespaces/NS/events?fieldSelector=involvedObject.name%3DPOD&limit=N": the pod's
// events (core/v1, as kubectl describe lists them).
std::string events_path(const std::string& namespace_, const std::string& pod, long limit);

}  // namespace icheck::stream
