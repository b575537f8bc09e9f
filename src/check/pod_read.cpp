#include "check/pod_read.hpp"

#include "exec/child.hpp"
#include "kube/denial.hpp"
#include "kube/kubectl_argv.hpp"
#include "stream/http_get.hpp"
#include "stream/request.hpp"
#include "util/duration.hpp"

#include <boost/json.hpp>
#include <cctype>

namespace icheck::check {
namespace {

using Outcome = ReadResult::Outcome;

// A Status body's message, else the body's first line.
std::string status_message(const std::string& body) {
  boost::system::error_code ec;
  const auto doc = boost::json::parse(body, ec);
  if (!ec && doc.is_object()) {
    if (const auto* m = doc.as_object().if_contains("message"); m != nullptr && m->is_string())
      return std::string(m->as_string());
  }
  return body.substr(0, body.find('\n'));
}

bool is_status(const std::string& body) {
  return body.find("\"kind\"") != std::string::npos && body.find("Status") != std::string::npos;
}

// nullopt: the proxy itself refused the path (its filter answers a plain "Forbidden") or
// stopped answering (then the run goes on without it), so the read goes through kubectl instead.
std::optional<ReadResult> through_proxy(PodExec& pod_exec, const std::string& socket,
                                        const std::string& path, std::size_t cap,
                                        std::chrono::milliseconds deadline) {
  const auto got = stream::http_get(socket, path, {deadline, cap});
  if (got.proxy_stopped) {
    pod_exec.fall_back(got.error + " during a log read", true);
    return std::nullopt;
  }
  ReadResult r;
  if (got.status == 200) {
    r.outcome = Outcome::read;
    r.body = got.body;
    r.truncated = got.truncated;
    return r;
  }
  if (got.status == 0) {
    r.why = got.error;
    return r;
  }
  if (got.status == 403 && !is_status(got.body))
    return std::nullopt;
  r.why = status_message(got.body);
  r.outcome = got.status == 403                        ? Outcome::forbidden
              : got.status == 400 || got.status == 404 ? Outcome::absent
                                                       : Outcome::failed;
  return r;
}

// "Error from server (Forbidden): " at the start of a line, taken off.
std::string without_server_lead(const std::string& line) {
  constexpr std::string_view lead = "Error from server (";
  if (!line.starts_with(lead))
    return line;
  auto at = lead.size();
  while (at < line.size() && std::isalpha(static_cast<unsigned char>(line[at])))
    ++at;
  if (at == lead.size() || line.compare(at, 3, "): ") != 0)
    return line;
  return line.substr(at + 3);
}

// kubectl's last stderr line without its "Error from server (X): " lead.
std::string kubectl_said(const std::string& err) {
  auto end = err.find_last_not_of("\r\n");
  if (end == std::string::npos)
    return "kubectl said nothing";
  auto start = err.rfind('\n', end);
  auto line = err.substr(start == std::string::npos ? 0 : start + 1, end - start);
  return without_server_lead(line);
}

ReadResult through_kubectl(std::vector<std::string> argv, std::size_t cap,
                           std::chrono::milliseconds deadline) {
  exec::ChildSpec spec;
  spec.argv = std::move(argv);
  spec.deadline = deadline;
  spec.output_cap = cap;
  const auto got = exec::run_child(spec);
  ReadResult r;
  if (got.ok() || got.truncated) {  // cut at the cap: what came is kept, said as cut
    r.outcome = Outcome::read;
    r.body = got.out;
    r.truncated = got.truncated;
    return r;
  }
  r.why = got.not_found              ? "kubectl not found"
          : got.timed_out            ? "no answer before the deadline"
          : got.interrupted          ? "interrupted"
          : !got.spawn_error.empty() ? got.spawn_error
                                     : kubectl_said(got.err);
  if (got.err.find("(Forbidden)") != std::string::npos)
    r.outcome = Outcome::forbidden;
  else if (got.err.find("(BadRequest)") != std::string::npos ||
           got.err.find("(NotFound)") != std::string::npos)
    r.outcome = Outcome::absent;
  return r;
}

}  // namespace

bool reads_current_log(const kube::PodInfo& pod) {
  return !pod.container.empty() && !pod.node.empty() &&
         (pod.container_running || pod.restart_count > 0);
}

bool reads_previous_log(const kube::PodInfo& pod) {
  return !pod.container.empty() && !pod.node.empty() && pod.restart_count > 0;
}

PodReads read_pod(PodExec& pod_exec, const KubeSession& session, const kube::PodInfo& pod,
                  const ReadLimits& limits) {
  const auto socket = pod_exec.proxy_socket();
  // Room above limitBytes for the kubelet's timestamps; the events list has its own bound.
  const auto log_cap = static_cast<std::size_t>(limits.limit_bytes) + 64 * 1024;
  const std::size_t events_cap = 4u << 20;
  // The pod's reads share one deadline: a kubelet that never answers costs the pod one
  // --timeout, not one per read (and not one more when the proxy falls back to kubectl).
  using Clock = std::chrono::steady_clock;
  const auto until = Clock::now() + limits.deadline;
  auto read = [&](const std::string& path, std::vector<std::string> argv, std::size_t cap) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    if (left.count() <= 0) {
      ReadResult r;
      r.why = "the pod's reads had used their deadline (" + format_duration(limits.deadline) + ")";
      return r;
    }
    if (!socket.empty()) {
      if (auto r = through_proxy(pod_exec, socket, path, cap, left))
        return *r;
    }
    const auto rest = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    return through_kubectl(std::move(argv), cap, std::max(rest, std::chrono::milliseconds(1)));
  };
  auto log = [&](bool previous) {
    stream::LogQuery q{pod.namespace_, pod.name,          pod.container,
                       previous,       limits.tail_lines, limits.limit_bytes};
    return read(stream::log_path(q),
                kube::logs_argv(session.base, pod.namespace_, pod.name, pod.container, previous,
                                limits.tail_lines, limits.limit_bytes),
                log_cap);
  };
  PodReads reads;
  // Events first: the API server answers them itself; a log goes on to the node's kubelet.
  reads.events = read(stream::events_path(pod.namespace_, pod.name, limits.events),
                      kube::events_argv(session.base, pod.namespace_, pod.name), events_cap);
  if (reads_current_log(pod))
    reads.current = log(false);
  if (reads_previous_log(pod))
    reads.previous = log(true);
  return reads;
}

Denied denied_parts(const std::string& message) {
  auto parts = kube::denial(message);
  return {std::move(parts.user), std::move(parts.verb), std::move(parts.resource)};
}

}  // namespace icheck::check
