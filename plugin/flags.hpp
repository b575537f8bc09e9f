#pragma once
// The command line's shape: which flags exist, where. Kubernetes flags are global (kubectl
// accepts them before or after the command); every other flag belongs to the commands that use
// it, so `env --pod` or `version --local` is an unknown flag, not silently ignored.

#include "check/options.hpp"

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

namespace icheck::plugin {

inline constexpr const char* k_kube_group = "Kubernetes";

struct CommandLine {
  check::Options options;
  std::string format = "table";  // -o
  std::string color = "auto";
  bool no_headers = false;
  std::string timeout = "30s";
  std::string transfer_timeout = "60s";
  std::string matrix_budget = "10m";
  std::string transport;  // --transport; "" when not given ($DYNAMO_ICHECK_TRANSPORT, else proxy)
};

// The values an enumerated flag takes, by long name (output, color, pairs): the parser's check,
// the help text and completion all read them here.
const std::map<std::string, std::vector<std::string>>& flag_choices();

// Every flag and command on `app`, bound to `line`.
void add_commands(CLI::App& app, CommandLine& line);

// The positional argument a command takes ("PATH"), or "" when it takes none.
std::string positional_name(const CLI::App& command);

}  // namespace icheck::plugin
