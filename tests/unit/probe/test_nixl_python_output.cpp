// parse_nixl_python on the NIXL Python test's own outputs (tests/fixtures/transfer/nixl_python),
// and the script as it travels.
#include "fixture.hpp"
#include "probe/transfer/nixl_python_script.hpp"
#include "probe/transfer/transfer_output.hpp"

#include <doctest/doctest.h>

using namespace icheck::probe;

namespace {

NixlPythonResult pair_of(const std::string& name) {
  return parse_nixl_python(test::fixture("transfer/nixl_python/" + name + "-decode.txt") + "\n" +
                           test::fixture("transfer/nixl_python/" + name + "-prefill.txt"));
}

}  // namespace

TEST_CASE("nixl python: a run on host memory: figure, both checks, memory and why not GPU") {
  auto r = pair_of("host-ok");
  CHECK(r.connected);
  CHECK(r.gb_per_s == 0.727);
  CHECK(r.bytes == 738197504);
  CHECK(r.verified_both());
  CHECK(r.blocks == 4);
  CHECK(r.block_bytes == 16777216);
  CHECK_FALSE(r.corruption);
  CHECK(r.skipped.empty());
  REQUIRE(r.memory.size() == 2);
  CHECK(r.memory[0].kind == "DRAM");
  CHECK(r.memory[0].via == "host");
  CHECK_FALSE(r.memory[0].gpu);
  CHECK(r.memory[0].bytes == 67108864);
  CHECK(r.memory[0].why ==
        "CUDA runtime: RuntimeError: cudaSetDevice returned CUDA error 35; no cupy; no torch");
}

TEST_CASE("nixl python: GPU memory with NIXL's own log lines around") {
  auto r = pair_of("vram-ok");
  CHECK(r.gb_per_s == 41.2);
  CHECK(r.verified_both());
  REQUIRE(r.memory.size() == 2);
  CHECK(r.memory[1].kind == "VRAM");
  CHECK(r.memory[1].via == "CUDA");
  CHECK(r.memory[1].gpu == 3);
  CHECK(r.memory[1].bytes == 268435456);
}

TEST_CASE("nixl python: corruption is seen on both sides, the first one kept") {
  auto r = pair_of("corrupt");
  REQUIRE(r.corruption);
  CHECK(r.corruption->side == "decode");
  CHECK(r.corruption->op == "WRITE");
  CHECK(r.corruption->block == 0);
  CHECK(r.corruption->offset == 8388608);
  CHECK(r.corruption->expected == "0x75");
  CHECK(r.corruption->got == "0x2f");
  CHECK_FALSE(r.verified_both());
  CHECK(r.gb_per_s == 0.572);  // a figure, but the data is wrong
}

TEST_CASE("nixl python: an API without nixl._api is skipped with the reason, one side alone is not "
          "both") {
  auto r = parse_nixl_python(test::fixture("transfer/nixl_python/api-differs-decode.txt"));
  CHECK(r.skipped == "nixl._api not in this NIXL (No module named 'nixl._api')");
  CHECK_FALSE(r.connected);
  CHECK_FALSE(r.gb_per_s);
  auto one = parse_nixl_python(test::fixture("transfer/nixl_python/host-ok-prefill.txt"));
  CHECK_FALSE(one.verified_both());
}

TEST_CASE("nixl python: a stall connects and has no figure") {
  auto r = pair_of("hang");
  CHECK(r.connected);
  CHECK_FALSE(r.gb_per_s);
  CHECK(r.verified.empty());
}

TEST_CASE("nixl python: hostile values stay bounded") {
  // synthetic: the script's line format with values it never prints
  auto r = parse_nixl_python("icheck-nixl: memory kind=VRAM gpu=99999999999999999999 bytes=x\n"
                             "icheck-nixl: verified side=decode op=WRITE blocks=-5 block_bytes=1\n"
                             "icheck-nixl: result gbps=nan\n"
                             "icheck-nixl:\n"
                             "icheck-nixl: corrupted\n");
  REQUIRE(r.memory.size() == 1);
  CHECK_FALSE(r.memory[0].gpu);
  CHECK(r.memory[0].bytes == 0);
  CHECK(r.blocks == 0);
  REQUIRE(r.corruption);
  CHECK(r.corruption->side.empty());
}

TEST_CASE("nixl python script: comments and blank lines dropped, code kept") {
  CHECK(compact_python("# head\nimport os\n\n    # inside\n    x = '#' # tail\n") ==
        "import os\n    x = '#' # tail\n");
  const auto& s = nixl_python_script();
  CHECK(s.find("\n#") == std::string::npos);
  CHECK(s.find("import nixl._api as api") != std::string::npos);
  CHECK(s.size() < 20000);  // it travels in two argv per pair
}
