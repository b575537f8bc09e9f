#pragma once
// Commands that are printed for the user to run (`next`): they carry the user's context,
// namespace and other kubectl flags, never a credential. The child processes the tool runs
// itself still get the full argv.

#include <string>
#include <vector>

namespace icheck::outside {

// argv without kubectl's credential-carrying flags (reference kubectl.md §1.3: --token,
// --password, --username, --client-key, --client-certificate), in both the "--flag=value" and
// the "--flag value" spelling; every other word kept in order.
std::vector<std::string> printable_argv(const std::vector<std::string>& argv);

} // namespace icheck::outside
