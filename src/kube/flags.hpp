#pragma once
// kubectl's global flags exactly as the user gave them. The plugin never re-implements auth:
// what the user typed is forwarded to every kubectl child (kubectl_argv.hpp).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::kube {

struct KubeFlags {
  std::optional<std::string> kubeconfig;
  std::optional<std::string> context;
  std::optional<std::string> cluster;
  std::optional<std::string> user;
  std::optional<std::string> namespace_; // "" counts as not set, like kubectl
  bool all_namespaces = false;
  std::optional<std::string> request_timeout;
  std::optional<std::string> as;
  std::vector<std::string> as_groups;
  std::optional<std::string> as_uid;
  std::optional<std::string> token;
  std::optional<std::string> server;
  std::optional<bool> insecure_skip_tls_verify;
  std::optional<std::string> certificate_authority;
  std::optional<std::string> client_certificate;
  std::optional<std::string> client_key;
  std::optional<std::string> tls_server_name;
  std::optional<std::string> cache_dir;
  std::optional<std::string> verbosity; // -v / --v
};

// pflag accepts "-n=foo" but CLI11 would hand "=foo" to the option: split such short flags
// ("-n -l -c -o -v -s") into "-n" "foo". Everything after "--" is left as is.
std::vector<std::string> normalize_kubectl_argv(std::vector<std::string> argv);

// kubectl's own check of -n (cli-runtime ValidatePathSegmentName); the full stderr line
// kubectl prints, e.g. `error: invalid namespace "ns/x": [may not contain '/']`.
std::optional<std::string> namespace_error(std::string_view ns);

// A non-empty -n/--namespace, the only form kubectl treats as "given".
std::optional<std::string> given_namespace(const KubeFlags& flags);

} // namespace icheck::kube
