#include "kube/kubeconfig.hpp"

#include "util/text.hpp"

namespace icheck::kube {
namespace {

constexpr const char* kServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

std::optional<std::string> non_empty(const std::optional<std::string>& value) {
  if (!value || value->empty())
    return std::nullopt;
  return value;
}

// client-go inClusterClientConfig.Possible().
bool in_cluster_possible(const Environment& env) {
  const std::string token = std::string(kServiceAccountDir) + "/token";
  return non_empty_env(env, "KUBERNETES_SERVICE_HOST") &&
         non_empty_env(env, "KUBERNETES_SERVICE_PORT") && env.exists(token) &&
         !env.is_directory(token);
}

// client-go inClusterClientConfig.Namespace(): the downward-API variable, then the
// service-account file, then "default".
std::string in_cluster_namespace(const Environment& env) {
  if (auto ns = non_empty_env(env, "POD_NAMESPACE"))
    return *ns;
  auto text = env.read_file(std::string(kServiceAccountDir) + "/namespace");
  auto ns = text ? std::string(text::trim(*text)) : std::string();
  return ns.empty() ? "default" : ns;
}

// DeferredLoadingClientConfig.Namespace(): an in-cluster namespace only replaces an implicit
// "default" from the kubeconfig, never a flag or a namespace the context sets.
std::string resolve_namespace(const KubeFlags& flags, const KubeContext* context,
                              const Environment& env) {
  if (auto ns = given_namespace(flags))
    return *ns;
  const std::string from_context = context != nullptr ? context->namespace_ : "";
  if (!in_cluster_possible(env))
    return from_context.empty() ? "default" : from_context;
  // Set in the context, even to "default", counts as explicit and wins over in-cluster.
  if (!from_context.empty())
    return from_context;
  return in_cluster_namespace(env);
}

bool is_empty(const Kubeconfig& config) {
  return config.current_context.empty() && config.contexts.empty() &&
         config.cluster_servers.empty() && config.users.empty();
}

// What kubectl would connect to: --server, the cluster's server, in-cluster for an empty
// kubeconfig, else client-go's ClusterDefaults ($KUBERNETES_MASTER or localhost:8080).
std::string resolve_server(const KubeFlags& flags, const Kubeconfig& config,
                           const std::string& cluster, const Environment& env) {
  if (auto server = non_empty(flags.server))
    return *server;
  auto found = config.cluster_servers.find(cluster);
  if (found != config.cluster_servers.end() && !found->second.empty())
    return found->second;
  if (is_empty(config) && in_cluster_possible(env)) {
    return "https://" + *env.getenv("KUBERNETES_SERVICE_HOST") + ":" +
           *env.getenv("KUBERNETES_SERVICE_PORT");
  }
  return non_empty_env(env, "KUBERNETES_MASTER").value_or("http://localhost:8080");
}

// Texts observed from kubectl 1.31 (reference §1.6): with -n, Namespace() returns before
// ConfirmUsable, so a flag-given missing context fails later in getContext with other words.
std::optional<Error> context_error(const KubeFlags& flags, const Kubeconfig& config,
                                   const std::string& name) {
  if (name.empty() || config.contexts.count(name) != 0)
    return std::nullopt;
  if (non_empty(flags.context) && given_namespace(flags)) {
    return Error{"error: context \"" + name + "\" does not exist"};
  }
  return Error{"Error in configuration: context was not found for specified context: " + name};
}

std::optional<Error> override_error(const KubeFlags& flags, const Kubeconfig& config) {
  if (auto cluster = non_empty(flags.cluster); cluster && !config.cluster_servers.count(*cluster)) {
    return Error{"error: no server found for cluster \"" + *cluster + "\""};
  }
  if (auto user = non_empty(flags.user); user && !config.users.count(*user)) {
    return Error{"error: auth info \"" + *user + "\" does not exist"};
  }
  return std::nullopt;
}

} // namespace

Expected<ResolvedKube> resolve_kube(const KubeFlags& flags, const Environment& env) {
  if (flags.namespace_) {
    if (auto error = namespace_error(*flags.namespace_))
      return Error{*error};
  }
  auto files = kubeconfig_files(flags, env);
  if (!files)
    return files.error();
  auto config = load_kubeconfig(*files, env);
  if (!config)
    return config.error();

  ResolvedKube resolved;
  resolved.files = *files;
  resolved.all_namespaces = flags.all_namespaces;
  resolved.context = non_empty(flags.context).value_or(config->current_context);
  if (auto error = context_error(flags, *config, resolved.context))
    return *error;
  if (auto error = override_error(flags, *config))
    return *error;

  const KubeContext* context = nullptr;
  if (auto found = config->contexts.find(resolved.context); found != config->contexts.end()) {
    context = &found->second;
  }
  resolved.cluster = non_empty(flags.cluster).value_or(context ? context->cluster : "");
  resolved.user = non_empty(flags.user).value_or(context ? context->user : "");
  resolved.namespace_ = resolve_namespace(flags, context, env);
  resolved.server = resolve_server(flags, *config, resolved.cluster, env);
  return resolved;
}

} // namespace icheck::kube
