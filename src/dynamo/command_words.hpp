#pragma once
// A container's command line as the words its program sees. Pure.

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::dynamo {

// `$(NAME)` (Kubernetes), `${NAME}`, `${NAME:-default}`, `${NAME-default}` and `$NAME` (the
// shell of `sh -c`) replaced by the literal value of that variable in env (or the default where
// the variable is not there); references (valueFrom) and unknown names stay as written.
std::string expand_env_refs(std::string_view text, const std::map<std::string, std::string>& env);

// The words a POSIX shell makes of one script or argument: blanks and newlines separate,
// `;`, `&`, `|` end a word, single quotes keep everything, double quotes keep blanks and drop a
// backslash before `"`, `\`, `$`, a backslash-newline continues the line. No expansion.
std::vector<std::string> shell_words(std::string_view text);

// command + args as the spec lists them, each element expanded (expand_env_refs) and split
// into shell words (an element is often a whole multi-line `sh -c` script).
std::vector<std::string> command_words(const std::vector<std::string>& command_line,
                                       const std::map<std::string, std::string>& env);

} // namespace icheck::dynamo
