#pragma once
// argv for every kubectl child: the user's own global flags plus the resolved context, so a
// child sees exactly what `kubectl` typed by the user would see (reference §1.7 point 3).

#include "kube/environment.hpp"
#include "kube/flags.hpp"
#include "kube/kubeconfig.hpp"

#include <optional>
#include <string>
#include <vector>

namespace icheck::kube {

// $DYNAMO_ICHECK_KUBECTL (e.g. a versioned /usr/lib/google-cloud-sdk/bin/kubectl.1.31), else
// "kubectl" from PATH.
std::string kubectl_program(const Environment& env);

// program + --kubeconfig (as given) + --context (resolved) + every other global flag given.
std::vector<std::string> kubectl_base_argv(const std::string& program, const KubeFlags& flags,
                                           const ResolvedKube& resolved);

// base + get pods -o json (-A | -n NS) [-l SELECTOR]
std::vector<std::string> get_pods_argv(std::vector<std::string> base, const std::string& namespace_,
                                       bool all_namespaces, const std::string& selector);

// base + get pods NAME... -o json -n NS: one name gives a Pod, several a List.
std::vector<std::string> get_named_pods_argv(std::vector<std::string> base,
                                             const std::string& namespace_,
                                             const std::vector<std::string>& names);

// base + exec POD -n NS -c C -- sh -c SCRIPT
std::vector<std::string> exec_argv(std::vector<std::string> base, const std::string& namespace_,
                                   const std::string& pod, const std::string& container,
                                   const std::string& script);

// base + logs POD -n NS -c C --tail=N --limit-bytes=B --timestamps [--previous]: bounded, never
// --follow (the kubectl transport's read of a worker's log).
std::vector<std::string> logs_argv(std::vector<std::string> base, const std::string& namespace_,
                                   const std::string& pod, const std::string& container,
                                   bool previous, long tail_lines, long limit_bytes);

// base + get events -n NS --field-selector involvedObject.name=POD -o json
std::vector<std::string> events_argv(std::vector<std::string> base, const std::string& namespace_,
                                     const std::string& pod);

// What `base + exec POD -n NS [-c C] [-i] -- COMMAND...` asks for (the argv exec_argv and the
// transfer plans build), so that the same exec can go another way than a kubectl child.
struct ExecArgv {
  std::string namespace_;
  std::string pod;
  std::string container;  // empty: not given
  bool stdin = false;     // -i
  std::vector<std::string> command;
};

// nullopt for any other shape (other flags, no "--", a different base): run it as it is.
std::optional<ExecArgv> parse_exec_argv(const std::vector<std::string>& argv,
                                        const std::vector<std::string>& base);

}  // namespace icheck::kube
