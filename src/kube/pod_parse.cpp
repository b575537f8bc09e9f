#include "kube/pods.hpp"

#include <algorithm>
#include <boost/json.hpp>

namespace icheck::kube {
namespace json = boost::json;
namespace {

// Tolerant accessors: a field that is absent or of another type reads as empty, as in
// kubectl's own printers; only a document that is not a Pod/List is an error.
const json::object* object_at(const json::object* parent, std::string_view key) {
  if (parent == nullptr)
    return nullptr;
  auto found = parent->find(key);
  return found == parent->end() ? nullptr : found->value().if_object();
}

const json::array* array_at(const json::object* parent, std::string_view key) {
  if (parent == nullptr)
    return nullptr;
  auto found = parent->find(key);
  return found == parent->end() ? nullptr : found->value().if_array();
}

std::string string_at(const json::object* parent, std::string_view key) {
  if (parent == nullptr)
    return {};
  auto found = parent->find(key);
  if (found == parent->end() || !found->value().is_string())
    return {};
  return std::string(found->value().get_string());
}

bool true_at(const json::object* parent, std::string_view key) {
  if (parent == nullptr)
    return false;
  auto found = parent->find(key);
  return found != parent->end() && found->value().is_bool() && found->value().get_bool();
}

std::vector<std::string> strings_at(const json::object* parent, std::string_view key) {
  std::vector<std::string> values;
  if (const auto* array = array_at(parent, key)) {
    for (const auto& value : *array) {
      if (value.is_string())
        values.emplace_back(value.get_string());
    }
  }
  return values;
}

std::map<std::string, std::string> string_map(const json::object* object) {
  std::map<std::string, std::string> values;
  if (object == nullptr)
    return values;
  for (const auto& [key, value] : *object) {
    if (value.is_string())
      values.emplace(std::string(key), std::string(value.get_string()));
  }
  return values;
}

// A container's env entries with a literal value (valueFrom references are left out).
std::map<std::string, std::string> literal_env(const json::object* container) {
  std::map<std::string, std::string> env;
  if (const auto* list = array_at(container, "env")) {
    for (const auto& item : *list) {
      const auto* var = item.if_object();
      if (var != nullptr && var->contains("value"))
        env[string_at(var, "name")] = string_at(var, "value");
    }
  }
  return env;
}

const json::object* find_named(const json::array* list, const std::string& name) {
  if (list == nullptr)
    return nullptr;
  for (const auto& item : *list) {
    const auto* object = item.if_object();
    if (object != nullptr && string_at(object, "name") == name)
      return object;
  }
  return nullptr;
}

const json::object* find_condition(const json::object* status, std::string_view type) {
  if (const auto* conditions = array_at(status, "conditions")) {
    for (const auto& item : *conditions) {
      const auto* object = item.if_object();
      if (object != nullptr && string_at(object, "type") == type)
        return object;
    }
  }
  return nullptr;
}

void choose_container(PodInfo& pod, const ContainerChoice& choice) {
  const auto& names = pod.containers;
  if (std::find(names.begin(), names.end(), choice.name) != names.end()) {
    pod.container = choice.name;
  } else if (!choice.given && !names.empty()) {
    pod.container = names.front();
    pod.container_note = "no container " + choice.name + "; using first container " + names.front();
  }
}

// Why the chosen container is not running, from its containerStatuses entry.
std::string container_state_reason(const json::object* container_status, bool& running) {
  const auto* state = object_at(container_status, "state");
  running = object_at(state, "running") != nullptr;
  if (const auto* waiting = object_at(state, "waiting")) {
    auto reason = string_at(waiting, "reason");
    return reason.empty() ? "waiting" : reason;
  }
  if (const auto* terminated = object_at(state, "terminated")) {
    auto reason = string_at(terminated, "reason");
    return reason.empty() ? "terminated" : "terminated: " + reason;
  }
  return running ? "" : "no container status";
}

long restart_count(const json::object* container_status) {
  if (container_status == nullptr)
    return 0;
  const auto* count = container_status->if_contains("restartCount");
  return count != nullptr && count->is_int64() ? static_cast<long>(count->as_int64()) : 0;
}

std::string phase_reason(const PodInfo& pod, const json::object* status,
                         const std::string& container_reason) {
  if (pod.phase == "Pending") {
    const auto* scheduled = find_condition(status, "PodScheduled");
    if (scheduled != nullptr && string_at(scheduled, "status") == "False") {
      auto reason = string_at(scheduled, "reason");
      return reason.empty() ? "Pending: not scheduled" : "Pending: " + reason;
    }
    return container_reason.empty() || container_reason == "no container status" ? "Pending"
                                                                                 : container_reason;
  }
  auto reason = string_at(status, "reason");  // e.g. Failed: Evicted
  return reason.empty() ? pod.phase : pod.phase + ": " + reason;
}

std::string not_running_reason(const PodInfo& pod, const json::object* metadata,
                               const json::object* status, const ContainerChoice& choice,
                               const std::string& container_reason) {
  if (pod.container.empty())
    return "container \"" + choice.name + "\" not found in pod";
  if (metadata != nullptr && metadata->contains("deletionTimestamp"))
    return "Terminating";
  if (pod.phase != "Running")
    return phase_reason(pod, status, container_reason);
  if (!pod.container_running)
    return container_reason;
  return pod.ready ? "" : "not Ready";
}

std::string label(const PodInfo& pod, const char* key) {
  auto found = pod.labels.find(key);
  return found == pod.labels.end() ? std::string() : found->second;
}

// Leader or worker of a multinode worker (dynamo-nixl.md §3.4): under LWS by the worker index
// (the group is the leader pod's name, <set>-<group index>), under Grove by the clique
// (<group>-ldr / <group>-wkr), else by the pod name.
void read_multinode(PodInfo& pod) {
  if (auto index = label(pod, kLwsWorkerIndexLabel); !index.empty()) {
    pod.multinode = index == "0" ? dynamo::MultinodePart::leader : dynamo::MultinodePart::worker;
    const auto set = label(pod, kLwsNameLabel);
    const auto group = label(pod, kLwsGroupIndexLabel);
    pod.multinode_group = set.empty() || group.empty() ? std::string() : set + "-" + group;
    return;
  }
  const std::string clique =
      pod.labels.count(kGroveCliqueLabel) ? pod.labels.at(kGroveCliqueLabel) : pod.name;
  pod.multinode = dynamo::multinode_part(clique);
  pod.multinode_group = dynamo::multinode_group(clique);
}

PodInfo parse_pod(const json::object& object, const ContainerChoice& choice) {
  const auto* metadata = object_at(&object, "metadata");
  const auto* spec = object_at(&object, "spec");
  const auto* status = object_at(&object, "status");
  PodInfo pod;
  pod.name = string_at(metadata, "name");
  pod.namespace_ = string_at(metadata, "namespace");
  pod.labels = string_map(object_at(metadata, "labels"));
  pod.node = string_at(spec, "nodeName");
  pod.host_ipc = true_at(spec, "hostIPC");
  pod.host_network = true_at(spec, "hostNetwork");
  pod.host_pid = true_at(spec, "hostPID");
  pod.pod_ip = string_at(status, "podIP");
  pod.host_ip = string_at(status, "hostIP");
  pod.phase = string_at(status, "phase");
  pod.ready = string_at(find_condition(status, "Ready"), "status") == "True";
  const auto* containers = array_at(spec, "containers");
  if (containers != nullptr) {
    for (const auto& item : *containers)
      pod.containers.push_back(string_at(item.if_object(), "name"));
  }
  choose_container(pod, choice);
  const auto* container = find_named(containers, pod.container);
  auto command_line = strings_at(container, "command");
  auto args = strings_at(container, "args");
  command_line.insert(command_line.end(), args.begin(), args.end());
  pod.spec_env = literal_env(container);
  const auto reading = pod_role_reading(pod.labels, command_line, pod.spec_env);
  pod.role = reading.role;
  pod.role_not_understood = reading.not_understood;
  pod.command_line = std::move(command_line);
  pod.component = pod.labels.count(kComponentLabel) ? pod.labels.at(kComponentLabel) : "";
  pod.dgd = pod.labels.count(kDeploymentLabel) ? pod.labels.at(kDeploymentLabel) : "";
  read_multinode(pod);
  bool running = false;
  const auto* container_status = find_named(array_at(status, "containerStatuses"), pod.container);
  const auto container_reason = container_state_reason(container_status, running);
  pod.restart_count = restart_count(container_status);
  pod.container_running = !pod.container.empty() && running;
  if (pod.container_running && container_status != nullptr)
    if (const auto* state = container_status->if_contains("state"); state && state->is_object())
      if (const auto* r = state->as_object().if_contains("running"); r && r->is_object())
        pod.started_at = string_at(&r->as_object(), "startedAt");
  pod.not_running_reason = not_running_reason(pod, metadata, status, choice, container_reason);
  return pod;
}

}  // namespace

Expected<std::vector<PodInfo>> parse_pods_json(std::string_view text,
                                               const ContainerChoice& choice) {
  boost::system::error_code ec;
  auto document = json::parse(text, ec);
  if (ec)
    return Error{"kubectl get pods returned invalid JSON: " + ec.message()};
  const auto* root = document.if_object();
  if (root == nullptr)
    return Error{"kubectl get pods returned JSON that is not an object"};
  const auto kind = string_at(root, "kind");
  std::vector<PodInfo> pods;
  if (kind == "Pod") {
    pods.push_back(parse_pod(*root, choice));
    return pods;
  }
  if (kind != "List" && kind != "PodList") {
    return Error{"kubectl get pods returned kind \"" + kind + "\", expected List, PodList or Pod"};
  }
  if (const auto* items = array_at(root, "items")) {
    for (const auto& item : *items) {
      if (const auto* object = item.if_object())
        pods.push_back(parse_pod(*object, choice));
    }
  }
  return pods;
}

bool PodInfo::probeable() const {
  return !container.empty() && not_running_reason.empty();
}

std::string PodInfo::skip_detail() const {
  return probeable() ? "" : "not probed: " + not_running_reason;
}

std::string PodInfo::next_step() const {
  if (probeable())
    return {};
  const auto where = name + " -n " + namespace_;
  if (container.empty()) {
    return "kubectl get pod " + where + " -o jsonpath='{.spec.containers[*].name}'";
  }
  if (not_running_reason == "CrashLoopBackOff" || not_running_reason.rfind("terminated", 0) == 0) {
    return "kubectl logs " + where + " -c " + container + " --previous";
  }
  return "kubectl describe pod " + where;
}

}  // namespace icheck::kube
