#pragma once
// `kubectl_complete-dynamo_icheck` (kubectl >= 1.26 runs it for `kubectl dynamo-icheck <TAB>`)
// runs `kubectl-dynamo_icheck __complete WORDS...`: the words typed after the plugin's name, the
// last one being completed. The answer is cobra's: one candidate a line, then ":<directive>".

#include "check/cluster_names.hpp"

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace icheck::plugin {

// Cobra's ShellCompDirective values kubectl passes on to the shell.
inline constexpr int k_complete_files = 0;     // the shell completes file names
inline constexpr int k_complete_no_files = 4;  // only the candidates given

struct Completion {
  std::vector<std::string> candidates;
  int directive = k_complete_no_files;
};

// Names from the cluster; `deployment` is the --deployment already on the line, if any.
using NameLookup = std::function<std::vector<std::string>(check::NameKind, const std::string&)>;

Completion complete(const CLI::App& app, const std::vector<std::string>& words,
                    const NameLookup& lookup);

std::string render_completion(const Completion& c);

}  // namespace icheck::plugin
