// The transfer tools' outputs: nixlbench and ucx_perftest tables, and the failure detector.
#include "fuzz_input.hpp"
#include "probe/transfer/transfer_output.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = icheck::fuzz::text(data, size);
  const auto bench = icheck::probe::parse_nixlbench(input);
  (void)bench.gb_per_s();
  (void)bench.max_gb_per_s();
  (void)icheck::probe::parse_ucx_perftest(input).gb_per_s();
  (void)icheck::probe::detect_transfer_failure(input);
  return 0;
}
