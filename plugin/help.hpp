#pragma once
// Help as kubectl prints it: the description, Examples:, Options: (one flag a paragraph, its
// default after '='), Exit codes:, Usage:, and where the Kubernetes options are listed
// (`kubectl dynamo-icheck options`, once). Wrapped at the terminal's width, 80 when not one.

#include <CLI/CLI.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace icheck::plugin {

class HelpFormatter : public CLI::FormatterBase {
public:
  explicit HelpFormatter(std::size_t width) : width_(width) {}

  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override;

private:
  std::size_t width_;
};

// The help of the top level (`app` has no parent) or of one command.
std::string help_text(const CLI::App& app, std::size_t width);

// `kubectl dynamo-icheck options`: the Kubernetes options every command accepts.
std::string global_options_text(const CLI::App& app, std::size_t width);

// `unknown command "nod" for "kubectl dynamo-icheck"` and the closest commands, when the
// first word that is not a flag names no command; nullopt otherwise.
std::optional<std::string> unknown_command(const CLI::App& app,
                                           const std::vector<std::string>& args);

}  // namespace icheck::plugin
