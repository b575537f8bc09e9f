#pragma once
// Running a command in a pod, by either transport (options.hpp Transport), with one result
// shape: exec::ChildResult as the `kubectl exec` child would have left it. The proxy is started
// at the first exec; when it cannot start, or exec through it is refused, the run goes on with
// kubectl exec children, saying so once on stderr.

#include "check/options.hpp"
#include "exec/child.hpp"
#include "stream/proxy.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace icheck::check {

class PodExec {
public:
  // kubectl_base: what every kubectl child gets (KubeSession::base); namespaces: of the pods
  // that may be exec'd into (the proxy allows exec there and nowhere else).
  PodExec(std::vector<std::string> kubectl_base, Transport transport,
          std::vector<std::string> namespaces);

  // spec.argv is a kubectl exec argv (kube::exec_argv, a transfer plan's side): with the proxy
  // transport it runs as a stream, bounded by spec's deadline and cap, stdin held open when it
  // has -i (as spec.hold_stdin does for the child); a spec.read_only command whose stream broke
  // before any byte is streamed once more. Thread-safe; never throws.
  exec::ChildResult run(const exec::ChildSpec& spec);

  // The socket of the running proxy, started on first use (waiting at most half of `deadline`
  // for it, 15 s without one); "" when there is none or the run went over to kubectl children
  // (pod_read.hpp then reads with kubectl too).
  std::string proxy_socket(std::chrono::milliseconds deadline = std::chrono::milliseconds(0));

  // Says why once; for_good: every later exec and read uses kubectl too (else only this one did).
  void fall_back(const std::string& why, bool for_good);

private:
  std::vector<std::string> m_base;
  std::vector<std::string> m_namespaces;
  std::atomic<bool> m_kubectl;
  std::mutex m_mutex;
  bool m_tried = false;
  bool m_said = false;
  std::unique_ptr<stream::Proxy> m_proxy;
};

}  // namespace icheck::check
