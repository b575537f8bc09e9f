#pragma once
// Every YAML document of a manifest, read so that the reader always ends (internal to recipe/).
// yaml-cpp 0.7's LoadAll loops forever on a token no document can start with (a stray ',' after
// a flow collection: "{}," at the top level), adding an empty document per turn until memory runs
// out (jbeder/yaml-cpp#1040, fixed upstream after 0.8.0; Debian ships 0.7). The bound: a document
// must start past where the previous one started; one that does not stops the file with an error
// that names the place. Nor more than kMaxDocuments: four million empty documents (`---` lines,
// 16 MiB) would cost gigabytes of nodes and seconds, for nothing.

#include "util/expected.hpp"

#include <cstddef>
#include <string_view>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace icheck::recipe::detail {

// A recipe's manifest holds a handful; a rendered Helm chart a few hundred.
inline constexpr std::size_t kMaxDocuments = 10000;

// The documents in order; an Error (1-based line, and column, in the message) when the reader
// stops making progress or there are more than `cap` documents. Syntax errors still throw
// YAML::Exception, as YAML::LoadAll does.
Expected<std::vector<YAML::Node>> load_documents(std::string_view text,
                                                 std::size_t cap = kMaxDocuments);

}  // namespace icheck::recipe::detail
