#pragma once
// Versions as the rows compare them: dotted numeric segments; a suffix after the numbers
// ("2.4.0amzn1.0", "1.19.0rc1") is kept in the text but not compared. Pure.

#include "knowledge/row.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace icheck::knowledge {

// "1.19.0rc1" -> {1, 19, 0}; "v2.22.3" -> {2, 22, 3}; nullopt without a leading number.
std::optional<std::vector<long long>> version_numbers(std::string_view text);

// ">=1.3.0 <1.3.2" -> two bounds; nullopt when a comparator or version does not parse.
std::optional<std::vector<VersionBound>> parse_version_range(std::string_view text);

// Every bound holds for `version` (missing segments count as 0); false when it is no version.
bool version_in(std::string_view version, const std::vector<VersionBound>& bounds);

}  // namespace icheck::knowledge
