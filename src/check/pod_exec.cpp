#include "check/pod_exec.hpp"

#include "exec/interrupt.hpp"
#include "kube/kubectl_argv.hpp"
#include "outside/mask.hpp"
#include "outside/text.hpp"
#include "stream/ws_exec.hpp"

#include <cstdio>

namespace icheck::check {
namespace {

// Words from kubectl or the proxy, as stderr may show them.
std::string shown(const std::string& text) {
  return outside::terminal_safe(outside::mask_secrets(text));
}

}  // namespace

PodExec::PodExec(std::vector<std::string> kubectl_base, Transport transport,
                 std::vector<std::string> namespaces)
    : m_base(std::move(kubectl_base)), m_namespaces(std::move(namespaces)),
      m_kubectl(transport == Transport::kubectl) {}

exec::ChildResult PodExec::run(const exec::ChildSpec& spec) {
  if (exec::interrupt_signal() != 0)  // nothing new starts, no proxy either: run_child says so
    return exec::run_child(spec);
  const auto parsed = m_kubectl ? std::nullopt : kube::parse_exec_argv(spec.argv, m_base);
  if (!parsed)
    return exec::run_child(spec);
  const auto socket = proxy_socket();
  if (socket.empty())
    return exec::run_child(spec);
  stream::ExecTarget target{parsed->namespace_, parsed->pod, parsed->container, parsed->command,
                            parsed->stdin};
  auto streamed = stream::ws_exec(socket, target, {spec.deadline, spec.output_cap});
  if (streamed.broke_early && spec.read_only && exec::interrupt_signal() == 0)
    streamed = stream::ws_exec(socket, target, {spec.deadline, spec.output_cap});
  if (!streamed.refused)
    return std::move(streamed.result);
  fall_back((streamed.transient ? "exec through it failed: " : "exec through it was refused: ") +
                streamed.why,
            !streamed.transient);
  return exec::run_child(spec);
}

std::string PodExec::proxy_socket() {
  std::lock_guard lock(m_mutex);
  if (!m_tried) {
    m_tried = true;
    auto proxy = stream::Proxy::start({m_base, m_namespaces});
    if (proxy) {
      m_proxy = std::move(*proxy);
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
