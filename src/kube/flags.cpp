#include "kube/flags.hpp"

#include <string>

namespace icheck::kube {
namespace {

bool is_short_value_flag(char c) {
  return std::string_view("nlcovs").find(c) != std::string_view::npos;
}

// "-n=foo": a single-dash, single-letter flag glued to '=' (pflag strips the '=').
bool is_short_flag_with_equals(const std::string& arg) {
  return arg.size() >= 3 && arg[0] == '-' && arg[1] != '-' && is_short_value_flag(arg[1]) &&
         arg[2] == '=';
}

} // namespace

std::vector<std::string> normalize_kubectl_argv(std::vector<std::string> argv) {
  std::vector<std::string> out;
  out.reserve(argv.size() + 4);
  bool passthrough = false;
  for (auto& arg : argv) {
    if (passthrough || !is_short_flag_with_equals(arg)) {
      passthrough = passthrough || arg == "--";
      out.push_back(std::move(arg));
      continue;
    }
    out.push_back(arg.substr(0, 2));
    out.push_back(arg.substr(3));
  }
  return out;
}

std::optional<std::string> namespace_error(std::string_view ns) {
  // Go prints the []string of problems space-separated inside brackets.
  std::string problems;
  auto add = [&](std::string_view problem) {
    problems += problems.empty() ? "" : " ";
    problems += problem;
  };
  if (ns == "." || ns == "..") {
    add(ns == "." ? "may not be '.'" : "may not be '..'");
  }
  if (ns.find('/') != std::string_view::npos)
    add("may not contain '/'");
  if (ns.find('%') != std::string_view::npos)
    add("may not contain '%'");
  if (problems.empty())
    return std::nullopt;
  return "error: invalid namespace \"" + std::string(ns) + "\": [" + problems + "]";
}

std::optional<std::string> given_namespace(const KubeFlags& flags) {
  if (!flags.namespace_ || flags.namespace_->empty())
    return std::nullopt;
  return flags.namespace_;
}

} // namespace icheck::kube
