#pragma once
// Help as kubectl users expect it: `kubectl dynamo-icheck SUBCOMMAND --help` lists the
// subcommand's own flags, then every flag it inherits (targets, output, kubectl's), then real
// examples; a mistyped subcommand gets cobra's "Did you mean" answer.

#include <CLI/CLI.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace icheck::plugin {

class HelpFormatter : public CLI::Formatter {
public:
  // Examples shown under each subcommand's help, by subcommand name.
  explicit HelpFormatter(std::map<std::string, std::vector<std::string>> examples)
      : examples_(std::move(examples)) {}

  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override;

private:
  std::string inherited_flags(const CLI::App& parent) const;
  std::map<std::string, std::vector<std::string>> examples_;
};

// `unknown command "nod" for "kubectl dynamo-icheck"` and the closest subcommand, when the
// first word that is not a flag names no subcommand; nullopt otherwise.
std::optional<std::string> unknown_command(const CLI::App& app,
                                           const std::vector<std::string>& args);

}  // namespace icheck::plugin

namespace icheck::plugin {
// Two or three real command lines per subcommand, for its --help.
std::map<std::string, std::vector<std::string>> subcommand_examples();
}  // namespace icheck::plugin
