#include "rules/env_live.hpp"

#include "dynamo/transport_vars.hpp"
#include "outside/mask.hpp"
#include "rules/env_detail.hpp"

using icheck::report::Status;

namespace icheck::rules {

namespace {

using detail::env_finding;

report::Finding compare_one(const std::string& service, const recipe::EnvVar& expected,
                            const std::map<std::string, std::string>& pod_env) {
  const auto live = pod_env.find(expected.name);
  const std::string want = outside::shown_value(expected.name, expected.value);
  if (live == pod_env.end()) {
    auto f = env_finding(service, expected.name, Status::warn,
                          "recipe sets " + want + ", the pod does not have it");
    f.next = "kubectl get dgd -o yaml  # was the recipe applied as is?";
    return f;
  }
  if (expected.is_reference) {
    return env_finding(service, expected.name, Status::ok,
                        live->second + " (from " + expected.value + " in the recipe)");
  }
  if (want == live->second) {
    return env_finding(service, expected.name, Status::ok, live->second + " as in the recipe");
  }
  return env_finding(service, expected.name, Status::warn,
                      live->second + " in the pod, " + want +
                          " in the recipe: operator or image changed it");
}

}  // namespace

std::vector<report::Finding> compare_live(const std::string& service,
                                          const std::vector<recipe::EnvVar>& recipe_env,
                                          const std::map<std::string, std::string>& pod_env) {
  std::vector<report::Finding> out;
  std::map<std::string, bool> in_recipe;
  for (const auto& var : recipe_env) {
    if (dynamo::is_transport_var(var.name)) {
      in_recipe[var.name] = true;
      out.push_back(compare_one(service, var, pod_env));
    }
  }
  for (const auto& [name, value] : pod_env) {
    if (!in_recipe.contains(name)) {
      auto f = env_finding(service, name, Status::ok,
                            value + " (not in the recipe: injected by operator or image)");
      f.required = false;
      out.push_back(std::move(f));
    }
  }
  return out;
}

report::Finding compare_kv_live(const recipe::Service& service, const KvBackends& pod) {
  const auto recipe = service_kv_backends(service);
  const std::string name = "kv transfer (live)";
  if (recipe.path() == pod.path()) {
    auto f = env_finding(service.name, name, Status::ok, pod.path() + " as in the recipe");
    f.required = false;
    return f;
  }
  auto f = env_finding(service.name, name, Status::warn,
                       "the pod moves KV with " + kv_path_text(pod) + ", the recipe with " + kv_path_text(recipe) +
                           ": the image, the operator or a changed ConfigMap moved it");
  f.next = "kubectl get dgd -o yaml  # was the recipe applied as is?";
  return f;
}

}  // namespace icheck::rules
