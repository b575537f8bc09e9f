#include "kube/kubectl_argv.hpp"

#include <algorithm>

namespace icheck::kube {
namespace {

// "--flag=value" keeps a value that starts with '-' from being read as a flag.
void add(std::vector<std::string>& argv, const char* flag,
         const std::optional<std::string>& value) {
  if (value)
    argv.push_back(std::string(flag) + "=" + *value);
}

void add_connection_flags(std::vector<std::string>& argv, const KubeFlags& flags) {
  add(argv, "--cluster", flags.cluster);
  add(argv, "--user", flags.user);
  add(argv, "--request-timeout", flags.request_timeout);
  add(argv, "--as", flags.as);
  for (const auto& group : flags.as_groups)
    argv.push_back("--as-group=" + group);
  add(argv, "--as-uid", flags.as_uid);
  add(argv, "--token", flags.token);
  add(argv, "--server", flags.server);
  if (flags.insecure_skip_tls_verify) {
    argv.push_back(std::string("--insecure-skip-tls-verify=") +
                   (*flags.insecure_skip_tls_verify ? "true" : "false"));
  }
  add(argv, "--certificate-authority", flags.certificate_authority);
  add(argv, "--client-certificate", flags.client_certificate);
  add(argv, "--client-key", flags.client_key);
  add(argv, "--tls-server-name", flags.tls_server_name);
  add(argv, "--cache-dir", flags.cache_dir);
  add(argv, "--v", flags.verbosity);
}

}  // namespace

std::string kubectl_program(const Environment& env) {
  return non_empty_env(env, "DYNAMO_ICHECK_KUBECTL").value_or("kubectl");
}

std::vector<std::string> kubectl_base_argv(const std::string& program, const KubeFlags& flags,
                                           const ResolvedKube& resolved) {
  std::vector<std::string> argv{program};
  if (flags.kubeconfig && !flags.kubeconfig->empty())
    add(argv, "--kubeconfig", flags.kubeconfig);
  if (!resolved.context.empty())
    argv.push_back("--context=" + resolved.context);
  add_connection_flags(argv, flags);
  return argv;
}

std::vector<std::string> get_pods_argv(std::vector<std::string> base, const std::string& namespace_,
                                       bool all_namespaces, const std::string& selector) {
  base.insert(base.end(), {"get", "pods", "-o", "json"});
  if (all_namespaces) {
    base.push_back("-A");
  } else {
    base.insert(base.end(), {"-n", namespace_});
  }
  if (!selector.empty())
    base.insert(base.end(), {"-l", selector});
  return base;
}

std::vector<std::string> get_named_pods_argv(std::vector<std::string> base,
                                             const std::string& namespace_,
                                             const std::vector<std::string>& names) {
  base.insert(base.end(), {"get", "pods"});
  base.insert(base.end(), names.begin(), names.end());
  base.insert(base.end(), {"-o", "json", "-n", namespace_});
  return base;
}

std::vector<std::string> exec_argv(std::vector<std::string> base, const std::string& namespace_,
                                   const std::string& pod, const std::string& container,
                                   const std::string& script) {
  base.insert(base.end(),
              {"exec", pod, "-n", namespace_, "-c", container, "--", "sh", "-c", script});
  return base;
}

std::vector<std::string> logs_argv(std::vector<std::string> base, const std::string& namespace_,
                                   const std::string& pod, const std::string& container,
                                   bool previous, long tail_lines, long limit_bytes) {
  base.insert(base.end(), {"logs", pod, "-n", namespace_, "-c", container,
                           "--tail=" + std::to_string(tail_lines),
                           "--limit-bytes=" + std::to_string(limit_bytes), "--timestamps"});
  if (previous)
    base.push_back("--previous");
  return base;
}

std::vector<std::string> events_argv(std::vector<std::string> base, const std::string& namespace_,
                                     const std::string& pod) {
  base.insert(base.end(), {"get", "events", "-n", namespace_, "--field-selector",
                           "involvedObject.name=" + pod, "-o", "json"});
  return base;
}

std::optional<ExecArgv> parse_exec_argv(const std::vector<std::string>& argv,
                                        const std::vector<std::string>& base) {
  if (argv.size() < base.size() + 5 || !std::equal(base.begin(), base.end(), argv.begin()))
    return std::nullopt;
  auto at = argv.begin() + static_cast<std::ptrdiff_t>(base.size());
  if (*at != "exec" || at[1].empty() || at[1].front() == '-')
    return std::nullopt;
  ExecArgv e;
  e.pod = at[1];
  for (at += 2; at != argv.end() && *at != "--"; ++at) {
    const bool has_value = at + 1 != argv.end();
    if (*at == "-i") {
      e.stdin = true;
    } else if ((*at == "-n" || *at == "-c") && has_value) {
      (*at == "-n" ? e.namespace_ : e.container) = at[1];
      ++at;
    } else {
      return std::nullopt;
    }
  }
  if (at == argv.end() || at + 1 == argv.end() || e.namespace_.empty())
    return std::nullopt;
  e.command.assign(at + 1, argv.end());
  return e;
}

}  // namespace icheck::kube
