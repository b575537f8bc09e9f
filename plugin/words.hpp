#pragma once
// Reading a command line the way the parser will: which word is the subcommand, which words
// are values of the flags before them. Shared by completion and the unknown-command message.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace icheck::plugin {

// The option `word` names in `sub` or the top-level app ("-o", "--output"); nullptr if none.
const CLI::Option* find_option(const CLI::App& app, const CLI::App* sub, const std::string& word);

// False for a flag (-A, --live): it never takes the next word as its value.
bool takes_value(const CLI::Option& opt);

// True when `word` is an option that takes a value and does not carry it ("--pod", not "--pod=x").
bool wants_value(const CLI::App& app, const CLI::App* sub, const std::string& word);

// Index of the first word that is neither a flag nor a flag's value; nullopt when there is none.
std::optional<std::size_t> first_command_word(const CLI::App& app,
                                              const std::vector<std::string>& words);

// The subcommand named by first_command_word, or nullptr.
const CLI::App* find_subcommand(const CLI::App& app, const std::vector<std::string>& words);

}  // namespace icheck::plugin

namespace icheck::plugin {
// "-o, --output": a flag as kubectl names it in help and errors.
std::string flag_label(const CLI::Option& opt);
}  // namespace icheck::plugin
