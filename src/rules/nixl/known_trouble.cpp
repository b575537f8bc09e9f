#include "rules/nixl/known_trouble.hpp"

#include "util/text.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace icheck::rules {
namespace {

// "1.19.0" -> {1, 19, 0}; "0.10.0rc1" -> {0, 10, 0}; nullopt without a leading number.
std::optional<std::vector<long long>> numbers(std::string_view v) {
  std::vector<long long> out;
  for (auto part : text::split(v, '.')) {
    std::size_t n = 0;
    while (n < part.size() && part[n] >= '0' && part[n] <= '9')
      ++n;
    if (n == 0)
      break;
    out.push_back(*text::to_int(part.substr(0, n)));
    if (n < part.size())
      break;  // "0rc1": the rest is a pre-release tag
  }
  if (out.empty())
    return std::nullopt;
  return out;
}

bool less(const std::vector<long long>& a, const std::vector<long long>& b) {
  const std::size_t n = std::max(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const long long x = i < a.size() ? a[i] : 0, y = i < b.size() ? b[i] : 0;
    if (x != y)
      return x < y;
  }
  return false;
}

std::string normal(std::string_view name) {
  std::string out = text::lower(name);
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

}  // namespace

const std::vector<KnownTrouble>& known_trouble() {
  static const std::vector<KnownTrouble> table{
      {"ucx", "0", "1.19",
       "NIXL requires UCP >= 1.19; older UCX has the gdr_copy multi-GPU bug and no EFA support (<= "
       "1.18) and "
       "no cuda_ipc for NVLink (<= 1.17), and NIXL's error handling is ~10x slower on it",
       "ai-dynamo/nixl #166"},
      {"nixl", "0.10.0", "0.10.1",
       "NIXL 0.10.0 changed UCX transport selection: KV between GPUs on different NUMA nodes took "
       "rc_mlx5 "
       "instead of cuda_ipc and failed; vLLM pins nixl < 0.10.0",
       "vllm-project/vllm #35799"},
      {"nixl-cu13", "1.0.0", "1.0.1",
       "the wheel's CUDA UCX modules are not found at run time, so VRAM registers as host memory "
       "and fails "
       "(NIXL_ERR_BACKEND); workaround UCX_MODULE_DIR=<site-packages>/nixl_cu13.libs/ucx",
       "ai-dynamo/nixl #1628"},
  };
  return table;
}

std::vector<const KnownTrouble*> troubles(std::string_view package, std::string_view version) {
  std::vector<const KnownTrouble*> out;
  const auto v = numbers(version);
  if (!v)
    return out;
  const std::string name = normal(package);
  for (const auto& row : known_trouble()) {
    const bool applies = row.package == name || (row.package == "nixl" && name.starts_with("nixl"));
    if (applies && !less(*v, *numbers(row.from)) && less(*v, *numbers(row.below)))
      out.push_back(&row);
  }
  return out;
}

std::string trouble_text(std::string_view shown_name, std::string_view version,
                         const KnownTrouble& row) {
  std::string out = std::string(shown_name) + " " + std::string(version);
  if (row.from == "0")
    out += " < " + std::string(row.below);
  return out + ": " + std::string(row.what) + " (" + std::string(row.source) + ")";
}

}  // namespace icheck::rules
