#pragma once
// Probe scripts are written as text with a placeholder for what is generated (internal to probe/).

#include <string>
#include <string_view>

namespace icheck::probe {

// script with its one `placeholder` replaced by patterns.
std::string fill_env_patterns(std::string_view script, std::string_view placeholder,
                              std::string_view patterns);

// script with every `placeholder` replaced by value (a variable's name from dynamo/).
std::string fill_every(std::string_view script, std::string_view placeholder,
                       std::string_view value);

} // namespace icheck::probe
