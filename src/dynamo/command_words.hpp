#pragma once
// A container's command line as the words its program sees. Pure.

#include <map>
#include <string>
#include <vector>

namespace icheck::dynamo {

// command + args as the spec lists them, each element split into words (an element is often
// a whole `sh -c` script), `$(VAR)`, `${VAR}` and `$VAR` replaced from the literal env.
std::vector<std::string> command_words(const std::vector<std::string>& command_line,
                                       const std::map<std::string, std::string>& env);

} // namespace icheck::dynamo

namespace icheck::dynamo {

// `$(NAME)` (Kubernetes), `${NAME}` and `$NAME` (the shell of `sh -c`) replaced by the literal
// value of that variable in env; references (valueFrom) and unknown names stay as written.
std::string expand_env_refs(std::string text, const std::map<std::string, std::string>& env);

} // namespace icheck::dynamo
