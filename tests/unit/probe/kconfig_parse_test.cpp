// The kernel's build config (probe/gpudirect/kconfig_parsers.hpp): the options GPUDirect RDMA over
// DMA-BUF needs, read whole or not at all.
#include "fixture.hpp"
#include "probe/gpudirect/kconfig_parsers.hpp"
#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"

#include <doctest/doctest.h>

using namespace icheck::probe;

TEST_CASE(
    "kernel config: a real config without CONFIG_PCI_P2PDMA reads unset, a missing option too") {
  // The section is the script's filter over the config's lines, then "read RC".
  auto c = parse_kernel_config("source /proc/config.gz\n" +
                               test::fixture("kernel-config/config-6.18-p2pdma-not-set.txt") +
                               "\nread 0\nmemory_peers absent\n");
  CHECK(c.source == "/proc/config.gz");
  CHECK(c.complete);
  CHECK(c.option("CONFIG_PCI_P2PDMA") == "unset");
  CHECK(c.option("CONFIG_DMABUF_MOVE_NOTIFY") == "unset");
  CHECK(c.option("CONFIG_PCI_MSI") == "y");
  CHECK(c.option("CONFIG_CC_VERSION_TEXT") == "\"gcc (GCC) 16.2.0\"");
  // A kernel without the option's dependencies prints no line for it: unset as well.
  CHECK(c.option("CONFIG_INFINIBAND_USER_MEM") == "unset");
  CHECK(c.memory_peers == false);
}

// synthetic: the section's lines in the kernel's .config format (CONFIG_X=y|m, "# CONFIG_X is
// not set"), as siderolabs/pkgs #1356 sets CONFIG_PCI_P2PDMA in kernel/build/config-amd64.
TEST_CASE("kernel config: set as y or m, and unknown where the config was not read whole") {
  auto y = parse_kernel_config("source /boot/config-6.8.0-1015-nvidia\nCONFIG_PCI_P2PDMA=y\n"
                               "read 0\nmemory_peers present\n");
  CHECK(y.option("CONFIG_PCI_P2PDMA") == "y");
  CHECK(y.memory_peers == true);
  CHECK(parse_kernel_config("source /proc/config.gz\nCONFIG_PCI_P2PDMA=m\nread 0\n")
            .option("CONFIG_PCI_P2PDMA") == "m");
  // No decompressor in the image, a decompressor that failed or was killed, no config at all.
  CHECK_FALSE(parse_kernel_config("source /proc/config.gz\nread none\nmemory_peers unread\n")
                  .option("CONFIG_PCI_P2PDMA"));
  CHECK_FALSE(
      parse_kernel_config("source /proc/config.gz\nread 137\n").option("CONFIG_PCI_P2PDMA"));
  auto none = parse_kernel_config("memory_peers unread\n");
  CHECK_FALSE(none.option("CONFIG_PCI_P2PDMA"));
  CHECK_FALSE(none.memory_peers);
}

TEST_CASE("kernel config: the node probe reads it, bounded, and fills NodeFacts") {
  auto script = std::string(node_probe_script());
  CHECK(script.find("begin kernel_config") != std::string::npos);
  CHECK(script.find("bounded zcat /proc/config.gz") != std::string::npos);
  CHECK(script.find("/boot/config-$kc_r") != std::string::npos);
  auto f = parse_node_probe("@@icheck:begin kernel_config@@\nsource /proc/config.gz\n"
                            "# CONFIG_PCI_P2PDMA is not set\nread 0\nmemory_peers absent\n"
                            "@@icheck:end kernel_config rc=0@@\n@@icheck:done@@\n");
  CHECK(f.kernel_config.option("CONFIG_PCI_P2PDMA") == "unset");
}
