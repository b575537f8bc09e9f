#pragma once
// Every YAML document of a manifest, read so that the reader always ends (internal to recipe/).
// yaml-cpp 0.7's LoadAll loops forever on a token no document can start with (a stray ',' after
// a flow collection: "{}," at the top level), adding an empty document per turn until memory runs
// out (jbeder/yaml-cpp#1040, fixed upstream after 0.8.0; Debian ships 0.7). The bound: a document
// must start past where the previous one started; one that does not stops the file with an error
// that names the place.

#include "util/expected.hpp"

#include <string_view>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace icheck::recipe::detail {

// The documents in order; an Error (1-based line and column in the message) when the reader
// stops making progress. Syntax errors still throw YAML::Exception, as YAML::LoadAll does.
Expected<std::vector<YAML::Node>> load_documents(std::string_view text);

}  // namespace icheck::recipe::detail
