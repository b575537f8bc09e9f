#pragma once
// The one way the plugin says it could not do what was asked: "error: ..." on stderr (kubeconfig
// errors keep kubectl's own words and prefix), and for a command-line mistake the pointer to the
// help, as kubectl prints them. Every error path goes through here and exits 3.

#include <string>

namespace icheck::plugin {

inline constexpr int k_exit_unknown = 3;  // "could not check at all" (DESIGN.md exit codes)

// stderr is a terminal too: what an error quotes (a path, a kubeconfig value, kubectl's words)
// passes the same policy as the report (outside/).
std::string shown(const std::string& text);

// Prints the error; `usage_of` is the command whose --help to point at ("" the top level), for
// mistakes on the command line only. Returns k_exit_unknown.
int print_error(const std::string& message);
int print_usage_error(const std::string& message, const std::string& usage_of);

}  // namespace icheck::plugin
