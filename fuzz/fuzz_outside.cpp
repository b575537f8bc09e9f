// The print policy's promises, checked on any bytes: terminal_safe output is terminal-safe,
// valid_utf8 output is valid UTF-8 (so terminal-safe once escaped), masking never grows a
// secret back, and each is stable when applied twice.
#include "fuzz_input.hpp"
#include "outside/argv.hpp"
#include "outside/mask.hpp"
#include "outside/text.hpp"

#include <cstdlib>

namespace {

void require(bool promise) {
  if (!promise)
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace icheck::outside;
  const auto input = icheck::fuzz::text(data, size);
  const std::string safe = terminal_safe(input);
  require(is_terminal_safe(safe));
  require(terminal_safe(safe) == safe);
  const std::string valid = valid_utf8(input);
  require(valid_utf8(valid) == valid);
  const std::string masked = mask_secrets(input);
  require(mask_secrets(masked) == masked);
  (void)shown_value(input, input);
  (void)printable_argv({"kubectl", std::string(input), "--token", std::string(input)});
  return 0;
}
