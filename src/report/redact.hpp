#pragma once
// Nothing printed that should stay secret: literal values of credential-looking variables are
// masked wherever an environment variable is shown (recipe, live pod, probe output).

#include <string>
#include <string_view>

namespace icheck::report {

// *TOKEN*, *SECRET*, *PASSWORD*, *KEY*, *CREDENTIAL* (case-insensitive).
bool looks_secret(std::string_view name);

// The value as it may be shown: "***" (masked) for credential-looking names, else the value.
std::string shown_value(std::string_view name, std::string_view value);

}  // namespace icheck::report
