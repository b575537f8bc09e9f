#include "check/pod_exec.hpp"

#include "exec/interrupt.hpp"
#include "kube/kubectl_argv.hpp"
#include "outside/mask.hpp"
#include "outside/text.hpp"
#include "stream/ws_exec.hpp"

#include <algorithm>
#include <cstdio>

namespace icheck::check {
namespace {

// Words from kubectl or the proxy, as stderr may show them.
std::string shown(const std::string& text) {
  return outside::at_most(outside::terminal_safe(outside::mask_secrets(text)));
}

// What is left of spec's deadline after `since` (the proxy's start came out of it).
exec::ChildSpec rest_of(const exec::ChildSpec& spec, std::chrono::steady_clock::time_point since) {
  auto rest = spec;
  if (spec.deadline.count() > 0)
    rest.deadline = std::max(std::chrono::milliseconds(1),
                             spec.deadline - std::chrono::duration_cast<std::chrono::milliseconds>(
                                                 std::chrono::steady_clock::now() - since));
  return rest;
}

}  // namespace

PodExec::PodExec(std::vector<std::string> kubectl_base, Transport transport,
                 std::vector<std::string> namespaces)
    : m_base(std::move(kubectl_base)), m_namespaces(std::move(namespaces)),
      m_kubectl(transport == Transport::kubectl) {}

exec::ChildResult PodExec::run(const exec::ChildSpec& spec) {
  const auto since = std::chrono::steady_clock::now();
  if (exec::interrupt_signal() != 0)  // nothing new starts, no proxy either: run_child says so
    return exec::run_child(spec);
  const auto parsed = m_kubectl ? std::nullopt : kube::parse_exec_argv(spec.argv, m_base);
  if (!parsed)
    return exec::run_child(spec);
  const auto socket = proxy_socket(spec.deadline);
  if (socket.empty())
    return exec::run_child(rest_of(spec, since));
  stream::ExecTarget target{parsed->namespace_, parsed->pod, parsed->container, parsed->command,
                            parsed->stdin};
  auto streamed = stream::ws_exec(socket, target, {spec.deadline, spec.output_cap});
  if (streamed.broke_early && spec.read_only && exec::interrupt_signal() == 0)
    streamed = stream::ws_exec(socket, target, {spec.deadline, spec.output_cap});
  if (streamed.proxy_stopped) {
    fall_back(streamed.refused ? streamed.why : streamed.why + " during an exec", true);
    // Nothing ran, or a read-only probe: kubectl exec does it over (a transfer side never).
    if (streamed.refused || (spec.read_only && exec::interrupt_signal() == 0))
      return exec::run_child(rest_of(spec, since));
    return std::move(streamed.result);
  }
  if (!streamed.refused)
    return std::move(streamed.result);
  fall_back((streamed.transient ? "exec through it failed: " : "exec through it was refused: ") +
                streamed.why,
            !streamed.transient);
  return exec::run_child(spec);
}

std::string PodExec::proxy_socket(std::chrono::milliseconds deadline) {
  std::lock_guard lock(m_mutex);
  if (!m_tried) {
    m_tried = true;
    stream::ProxyConfig config{m_base, m_namespaces};
    // Half of the first exec's deadline at most: the rest is for kubectl exec if it must.
    if (deadline.count() > 0)
      config.start_deadline = std::min(config.start_deadline, deadline / 2);
    auto proxy = stream::Proxy::start(config);
    if (proxy) {
      m_proxy = std::move(*proxy);
    } else if (exec::interrupt_signal() != 0) {
      m_kubectl = true;  // nothing to say: the run stops
    } else {
      m_kubectl = true;
      m_said = true;
      std::fprintf(stderr,
                   "note: kubectl proxy could not start (%s); using one kubectl exec per pod\n",
                   shown(proxy.error().message).c_str());
    }
  }
  return m_kubectl || !m_proxy ? std::string() : m_proxy->socket_path();
}

void PodExec::fall_back(const std::string& why, bool for_good) {
  std::lock_guard lock(m_mutex);
  if (for_good)
    m_kubectl = true;
  if (!m_said) {
    m_said = true;
    std::fprintf(stderr, "note: kubectl proxy: %s; using %s\n", shown(why).c_str(),
                 for_good ? "one kubectl exec per pod" : "kubectl exec for that pod");
  }
}

}  // namespace icheck::check
