#pragma once
// Small string helpers shared by the parsers (pure, allocation-light, never throw).

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace icheck::text {

// Lines without their terminators; a trailing "\r" is dropped (pasted CRLF output).
std::vector<std::string_view> lines(std::string_view s);
std::string_view trim(std::string_view s);
std::string lower(std::string_view s);
std::string upper(std::string_view s);
// Fields separated by runs of blanks (space or TAB).
std::vector<std::string_view> words(std::string_view s);
std::vector<std::string_view> split(std::string_view s, char sep);
// "key: value" at the first ':' with both sides trimmed; nullopt without ':'.
std::optional<std::pair<std::string_view, std::string_view>> key_value(std::string_view line);
std::optional<long long> to_int(std::string_view s);        // whole string, decimal
std::optional<unsigned long long> to_hex(std::string_view s);  // with or without 0x
std::optional<double> leading_number(std::string_view s);   // "400 Gb/sec" -> 400
// leading_number when it can be a rate: finite and above zero, no sign ("nan", "inf", "-0",
// "0", "1e400" are nullopt: a rate nobody can read is not a healthy one).
std::optional<double> leading_rate(std::string_view s);
bool contains(std::string_view s, std::string_view part);
// The word after `flag` (as `flag VALUE` or `flag=VALUE`) in a command line joined by spaces,
// without the quotes around it; "" when the flag is absent or has no value.
std::string flag_value(std::string_view line, std::string_view flag);
// `s` with every `from` replaced by `to`, left to right (a `to` that holds `from` is not
// replaced again).
std::string replace_all(std::string_view s, std::string_view from, std::string_view to);

}  // namespace icheck::text
