#include "recipe/role.hpp"

#include "util/text.hpp"

#include <algorithm>

namespace icheck::recipe {

static bool is_split_role(const std::string& role) { return role == "prefill" || role == "decode"; }

static std::string role_from_args(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--is-prefill-worker") {
      return "prefill";
    }
    if (arg == "--is-decode-worker") {
      return "decode";
    }
    if (arg.starts_with("--disaggregation-mode=")) {
      return text::lower(arg.substr(arg.find('=') + 1));
    }
    if (arg == "--disaggregation-mode" && i + 1 < args.size()) {
      return text::lower(args[i + 1]);
    }
  }
  return "";
}

static std::string role_from_name(const std::string& name) {
  const std::string low = text::lower(name);
  if (low.find("prefill") != std::string::npos) {
    return "prefill";
  }
  if (low.find("decode") != std::string::npos) {
    return "decode";
  }
  return "";
}

// The args start a Dynamo backend (python3 -m dynamo.vllm ...): then they carry the
// disaggregation flag if there is one, and its absence means an aggregated worker.
static bool launches_backend(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(),
                     [](const std::string& arg) { return arg.starts_with("dynamo."); });
}

std::string resolve_role(const Service& service) {
  const std::string type = text::lower(service.component_type);
  if (is_split_role(type)) {
    return type;
  }
  const std::string sub = text::lower(service.sub_component_type);
  if (is_split_role(sub)) {
    return sub;
  }
  if (type == "worker" || type.empty()) {
    if (std::string by_args = role_from_args(service.args); is_split_role(by_args)) {
      return by_args;
    }
    if (launches_backend(service.args)) {
      return "worker";
    }
    if (std::string by_name = role_from_name(service.name); !by_name.empty()) {
      return by_name;
    }
  }
  return type;
}

}  // namespace icheck::recipe
