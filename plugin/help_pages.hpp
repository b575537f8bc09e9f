#pragma once
// What each command's --help says beyond its flags: a paragraph, commented examples, its usage
// line, and the exit codes the commands that check share.

#include <string>
#include <utility>
#include <vector>

namespace icheck::plugin {

struct Example {
  std::string comment;  // "# ..." line above the command
  std::string command;
};

struct CommandPage {
  std::string about;  // paragraph under the one-line description
  std::vector<Example> examples;
  std::string usage;   // the arguments after the command's name
  bool checks = true;  // judges something: its help lists the exit codes
};

// The page of `command` ("" for the top level); an empty page for a command without one.
CommandPage command_page(const std::string& command);

// "Exit codes:" and one line per code, as the verdicts of DESIGN.md map them.
std::vector<std::pair<std::string, std::string>> exit_codes();

}  // namespace icheck::plugin
