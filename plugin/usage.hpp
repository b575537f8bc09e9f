#pragma once
// Mistakes on the command line, found before anything runs and said as kubectl says them:
//   error: unknown flag: --bogus
//   See 'kubectl dynamo-icheck node --help' for usage.
// One check of the words the user typed, so every mistake reads alike, whatever the parser
// would have said (CLI11's messages never reach the user).

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace icheck::plugin {

struct UsageError {
  std::string message;  // without "error: "
  std::string command;  // the command whose --help to point at; "" for the top level
};

// The first mistake in `args` (kubectl spellings normalized): an unknown flag, a flag of
// another command, a missing or invalid value, a missing or extra argument; nullopt if none.
std::optional<UsageError> check_command_line(const CLI::App& app,
                                             const std::vector<std::string>& args);

// Why `value` is not a valid value of the flag named `long_name`; nullopt when it is.
std::optional<std::string> invalid_value(const std::string& long_name, const std::string& value);

// A parser error the check above did not foresee, in the same words.
UsageError usage_error_of(const CLI::ParseError& e, const CLI::App& app);

}  // namespace icheck::plugin
