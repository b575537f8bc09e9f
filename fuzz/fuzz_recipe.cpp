// Recipe manifests (yaml-cpp, the v1alpha1/v1beta1 DGD readers) and a worker's engine config.
#include "fuzz_input.hpp"
#include "recipe/engine_config.hpp"
#include "recipe/load.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = icheck::fuzz::text(data, size);
  (void)icheck::recipe::parse_manifest(input, "fuzz.yaml");
  (void)icheck::recipe::transceiver_backend(input);
  return 0;
}
