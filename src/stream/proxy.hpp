#pragma once
// One `kubectl proxy` per run on a Unix socket in a private directory: kubectl does all the
// authentication (exec plugins, OIDC, certificates, tokens, impersonation) and the plugin
// never sees a credential; its filter lets through exactly the pods/exec paths of the
// targets' namespaces (GET only). The proxy ends with the plugin, also when the plugin is
// killed: a small sh holds a pipe whose write end only the plugin has, and on its EOF stops
// the proxy and removes the directory.

#include "exec/background.hpp"
#include "util/expected.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace icheck::stream {

struct ProxyConfig {
  std::vector<std::string> kubectl_base;  // program + the user's global flags + context
  std::vector<std::string> namespaces;    // of the exec targets
  std::chrono::milliseconds start_deadline{15'000};
};

// The proxy's argv after kubectl_base (pure: for the tests and the README).
std::vector<std::string> proxy_args(const std::string& socket_path,
                                    const std::string& accept_paths);

class Proxy {
public:
  // Starts the proxy and waits until it serves; an error says why it could not (kubectl's
  // own last line when it exited).
  static Expected<std::unique_ptr<Proxy>> start(const ProxyConfig& config);
  ~Proxy();
  Proxy(const Proxy&) = delete;
  Proxy& operator=(const Proxy&) = delete;

  const std::string& socket_path() const { return m_socket; }

private:
  Proxy(std::string dir, exec::BackgroundChild child);

  std::string m_dir;
  std::string m_socket;
  exec::BackgroundChild m_child;
  std::thread m_drain;  // reads the proxy's output (its log lines) until it ends
};

}  // namespace icheck::stream
