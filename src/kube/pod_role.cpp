#include "kube/pods.hpp"

#include <algorithm>
#include <sstream>
#include "util/join.hpp"
#include "util/text.hpp"

namespace icheck::kube {
namespace {

std::string label(const std::map<std::string, std::string>& labels, const char* key) {
  auto found = labels.find(key);
  return found == labels.end() ? std::string() : found->second;
}

bool is_prefill_or_decode(const std::string& value) {
  return value == "prefill" || value == "decode";
}

std::string role_from_component_name(const std::string& component) {
  const auto name = text::lower(component);
  if (name.find("prefill") != std::string::npos)
    return "prefill";
  if (name.find("decode") != std::string::npos)
    return "decode";
  return {};
}

// Args often arrive as one "python3 -m dynamo.vllm ..." string under sh -c: split on spaces.
std::vector<std::string> tokens(const std::vector<std::string>& command_line) {
  std::vector<std::string> words;
  for (const auto& arg : command_line) {
    std::istringstream in(arg);
    for (std::string word; in >> word;)
      words.push_back(word);
  }
  return words;
}

// Backends mark the role on the command line: --disaggregation-mode prefill|decode (SGLang,
// TRT-LLM), --is-prefill-worker (vLLM).
std::string role_from_command_line(const std::vector<std::string>& command_line) {
  const auto words = tokens(command_line);
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "--is-prefill-worker")
      return "prefill";
    if (words[i].rfind("--disaggregation-mode=", 0) == 0) {
      auto mode = words[i].substr(std::string("--disaggregation-mode=").size());
      if (is_prefill_or_decode(mode))
        return mode;
    }
    if (words[i] == "--disaggregation-mode" && i + 1 < words.size() &&
        is_prefill_or_decode(words[i + 1])) {
      return words[i + 1];
    }
  }
  return {};
}

} // namespace

std::string pod_role(const std::map<std::string, std::string>& labels,
                     const std::vector<std::string>& command_line) {
  const auto type = label(labels, kComponentTypeLabel);
  if (is_prefill_or_decode(type))
    return type;
  if (type != "worker" && !type.empty())
    return type; // frontend, planner, epp, ...
  const auto sub = label(labels, kSubComponentTypeLabel);
  if (type == "worker" && is_prefill_or_decode(sub))
    return sub;
  auto role = role_from_component_name(label(labels, kComponentLabel));
  if (role.empty())
    role = role_from_command_line(command_line);
  if (role.empty() && type == "worker")
    role = "worker";
  return role;
}

bool is_worker_role(std::string_view role) {
  return role == "prefill" || role == "decode" || role == "worker";
}


std::vector<PodInfo> select_targets(const std::vector<PodInfo>& pods, bool all_components) {
  std::vector<PodInfo> targets;
  std::copy_if(pods.begin(), pods.end(), std::back_inserter(targets),
               [&](const PodInfo& pod) { return all_components || is_worker_role(pod.role); });
  return targets;
}

std::string default_selector() {
  return kDeploymentLabel;
}

std::string deployment_selector(const std::string& dgd) {
  return std::string(kDeploymentLabel) + "=" + dgd;
}

std::string deployments_selector(const std::vector<std::string>& dgds) {
  if (dgds.size() == 1)
    return deployment_selector(dgds.front());
  return std::string(kDeploymentLabel) + " in (" + join(dgds, ",") + ")";
}

} // namespace icheck::kube
