#pragma once
// No secret in any output (DESIGN.md): values are masked by the name they are stored under
// and by what they look like, wherever they are shown (env values, details, facts, next).

#include <string>
#include <string_view>

namespace icheck::outside {

inline constexpr std::string_view kMask = "***";

// *TOKEN*, *SECRET*, *PASSWORD*, *PASSWD*, *KEY*, *CREDENTIAL* (so *_CREDENTIALS),
// *AUTHORIZATION*, and names whose last word is AUTH or PASS (NIXL_ETCD_AUTH, REDIS_PASS,
// --pass; not BYPASS), case-insensitive.
bool looks_secret(std::string_view name);

// The text with the secrets it carries masked (shapes in mask_shapes.hpp): PEM blocks, URL
// userinfo up to the last '@' (scheme://user:pa@ss@host -> scheme://***@host), the value of
// credential-looking key=value pairs (token=, password="...", --token=), the word after a
// credential-looking flag (--password X), and what follows "Bearer " or "Basic ".
std::string mask_secrets(std::string_view text);

// A variable's value as it may be shown: "***" for a credential-looking name, else the
// value with mask_secrets applied.
std::string shown_value(std::string_view name, std::string_view value);

} // namespace icheck::outside
