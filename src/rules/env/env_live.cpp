#include "rules/env/env_live.hpp"

#include "dynamo/transport_vars.hpp"
#include "outside/mask.hpp"
#include "rules/env/env_detail.hpp"
#include "rules/nixl/ignored_vars.hpp"

#include <algorithm>

using icheck::report::Status;

namespace icheck::rules {

namespace {

using detail::env_finding;

report::Finding missing(const std::string& service, const std::string& name, const std::string& want) {
  auto f = env_finding(service, name, Status::warn, "recipe sets " + want + ", the pod does not have it");
  f.next = "kubectl get dgd -o yaml  # was the recipe applied as is?";
  return f;
}

report::Finding compare_one(const std::string& service, const recipe::EnvVar& expected,
                            const std::string& live) {
  const std::string want = outside::shown_value(expected.name, expected.value);
  if (expected.is_reference) {
    return env_finding(service, expected.name, Status::ok,
                       live + " (from " + expected.value + " in the recipe)");
  }
  if (want == live) {
    return env_finding(service, expected.name, Status::ok, live + " as in the recipe");
  }
  return env_finding(service, expected.name, Status::warn,
                     live + " in the pod, " + want + " in the recipe: operator or image changed it");
}

// Where the pod's value came from, said after the rule's own words.
std::string origin(const recipe::EnvVar* expected, const std::string& live) {
  if (expected == nullptr) return "in the pod, not in the recipe: set by the operator or the image";
  if (expected->is_reference) return "in the pod, from " + expected->value + " in the recipe";
  const std::string want = outside::shown_value(expected->name, expected->value);
  if (want == live) return "as in the recipe";
  return "in the pod; the recipe has " + want + ": the operator or the image changed it";
}

// The service as the pod runs it: the pod's values of the variables the probe read.
recipe::Service as_running(const recipe::Service& service, const std::map<std::string, std::string>& pod_env) {
  recipe::Service live = service;
  for (const auto& [name, value] : pod_env) {
    // A structured binding is captured by name only from clang 16 (the sanitizer build's clang is 14).
    auto it = std::find_if(live.env.begin(), live.env.end(),
                           [&name = name](const recipe::EnvVar& v) { return v.name == name; });
    if (it == live.env.end()) {
      live.env.push_back({name, value, false});
    } else {
      *it = {name, value, false};
    }
  }
  return live;
}

// The rule the recipe's value goes through, on the pod's value; nullopt for a variable only listed.
std::optional<report::Finding> judged(const std::string& name, const recipe::Service& live,
                                      const recipe::EnvVar* expected, const std::string& value,
                                      const detail::EnvContext& ctx) {
  auto f = detail::judge_var(name, live, ctx);
  if (!f) return std::nullopt;
  f->detail += " (" + origin(expected, value) + ")";
  const bool changed = expected != nullptr && !expected->is_reference &&
                       outside::shown_value(name, expected->value) != value;
  if (changed && f->status == Status::ok) f->status = Status::warn;
  if (changed && f->next.empty()) f->next = "kubectl get dgd -o yaml  # was the recipe applied as is?";
  return f;
}

// A variable the pod's framework does not read for its backend: ignored, whatever its value.
bool said_ignored(const recipe::Service& service, const recipe::Service& live,
                  const std::string& name, std::vector<report::Finding>& out) {
  const auto b = service_kv_backends(live);
  for (const auto& v : b.ignored) {
    if (v.name != name)
      continue;
    out.push_back(ignored_var_finding(service.name + " " + name, report::Layer::env, b, v));
    return true;
  }
  return false;
}

}  // namespace

std::vector<report::Finding> compare_live(const recipe::Deployment& dgd, const recipe::Service& service,
                                          const std::map<std::string, std::string>& pod_env) {
  const auto ctx = detail::env_context(dgd);
  const recipe::Service live = as_running(service, pod_env);
  std::vector<report::Finding> out;
  std::map<std::string, const recipe::EnvVar*> in_recipe;
  for (const auto& var : service.env) {
    // Only what the probe reads can be compared: the rest is absent from every pod's facts.
    if (!dynamo::is_transport_var(var.name) || !dynamo::is_node_probe_var(var.name)) continue;
    in_recipe[var.name] = &var;
    const auto found = pod_env.find(var.name);
    if (found == pod_env.end()) {
      out.push_back(missing(service.name, var.name, outside::shown_value(var.name, var.value)));
    } else if (said_ignored(service, live, var.name, out)) {
      continue;
    } else if (auto f = judged(var.name, live, &var, found->second, ctx)) {
      out.push_back(std::move(*f));
    } else {
      out.push_back(compare_one(service.name, var, found->second));
    }
  }
  for (const auto& [name, value] : pod_env) {
    if (in_recipe.contains(name)) continue;
    if (said_ignored(service, live, name, out))
      continue;
    if (auto f = judged(name, live, nullptr, value, ctx)) {
      out.push_back(std::move(*f));
      continue;
    }
    auto f = env_finding(service.name, name, Status::ok,
                         value + " (not in the recipe: injected by operator or image)");
    f.required = false;
    out.push_back(std::move(f));
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
