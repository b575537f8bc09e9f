#pragma once
// A memlock limit as /proc/<pid>/limits and `ulimit -l` give it (shared by the exec shell's and
// the KV worker's facts).

#include <cstdint>
#include <optional>

namespace icheck::probe {

struct LimitValue {
  bool unlimited = false;
  std::uint64_t bytes = 0; // meaningful only when !unlimited
};

struct Memlock {
  std::optional<LimitValue> soft; // /proc/self/limits "Max locked memory"
  std::optional<LimitValue> hard;
  std::optional<LimitValue> ulimit_l; // `ulimit -l` (KiB converted to bytes)
};

} // namespace icheck::probe
