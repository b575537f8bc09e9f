#pragma once
// Test helpers that look at recipe files independently of the loader: a plain line scan and
// a generic YAML tree walk, so the loader's output is checked against something it did not
// compute itself.

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace icheck::test {

inline const std::filesystem::path recipes_root =
    std::filesystem::path(ICHECK_TEST_DATA) / "recipes";

// Every folder under tests/recipes that directly holds a *.yaml or *.yml (hidden files aside).
std::vector<std::filesystem::path> recipe_folders();

// Transport variable names (NIXL_, UCX_, NCCL_, GLOO_, VLLM_NIXL_, TRTLLM_*KVCACHE/NIXL/UCX/
// MNNVL*) named by `name: X` / `{name: X` lines inside the DynamoGraphDeployment documents of
// a file, comments skipped: name -> number of lines.
std::map<std::string, int> scan_transport_lines(const std::filesystem::path& file);

// For each service (v1alpha1 key / v1beta1 component name) of each DGD in a file, every
// transport variable name found anywhere under that service's YAML subtree, plus those in
// the graph-level spec.env / spec.envs list. Key: "<dgd name>/<service>".
std::map<std::string, std::set<std::string>> walk_transport_names(
    const std::filesystem::path& file);

}  // namespace icheck::test
