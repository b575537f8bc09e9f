#pragma once
// Versions of the KV stack's libraries in one image, from the stack_versions and stack_fi_info
// sections (stack_script.hpp). Each library may have several copies (a wheel in two site
// folders, a system library beside a wheel): every version seen is kept, so copies that
// disagree are said, never averaged. Pure.

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::probe {

struct StackVersions {
  bool read = false;  // the stack_versions section was there
  // "nixl", "nixl-cu12", "vllm", "sglang", "tensorrt_llm", "dynamo", "torch", "mooncake",
  // "nccl", "cuda", "ucx.system", "libfabric", "kernel" -> every version seen, with where.
  std::map<std::string, std::map<std::string, std::string>> copies;  // lib -> version -> path
  // Every distinct libnixl file in the known places (a symlink to one listed is not another),
  // and the one of them LD_LIBRARY_PATH resolves first ("" where it names none).
  std::vector<std::string> nixl_libs;
  std::string nixl_ld_first;

  void add(const std::string& lib, const std::string& version, const std::string& where);
  // The one version of `lib`; "" when none was seen or the copies disagree.
  std::string version(const std::string& lib) const;
};

// "dist /usr/local/lib/python3.12/dist-packages/nixl_cu12-1.3.0.dist-info" -> nixl-cu12 1.3.0, ...
StackVersions parse_stack_versions(std::string_view body);
// `fi_info --version`: "libfabric: 2.4.0amzn1.0" -> libfabric 2.4.0amzn1.0.
void read_fi_info_version(std::string_view output, StackVersions& into);

// The stack_env section: every variable, its value passed through outside::shown_value
// (credential-like names and secret-shaped values masked). Reading stops at the first record
// not in the "BYTES NAME=VALUE" form.
std::map<std::string, std::string> parse_whole_env(std::string_view body);

}  // namespace icheck::probe
