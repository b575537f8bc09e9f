#pragma once
// A hit as the report shows it: a Finding in the row's layer, named by its check, with the
// row's status, its filled detail and the first public source, and its next step.

#include "knowledge/evaluate.hpp"
#include "report/model.hpp"

#include <string>
#include <vector>

namespace icheck::knowledge {

// "https://github.com/ai-dynamo/nixl/issues/166" -> "ai-dynamo/nixl #166"; anything else as is.
std::string short_source(std::string_view url);

report::Finding to_finding(const Hit& hit);
std::vector<report::Finding> to_findings(const std::vector<Hit>& hits);

}  // namespace icheck::knowledge
