// Node facts the rows of trouble_node_facts.yaml read: the kernel's build options and the set of
// RDMA devices the pod can open, flattened from typed probe facts.
#include "knowledge/evaluate.hpp"
#include "knowledge/load.hpp"
#include "probe/gpudirect/kconfig_parsers.hpp"
#include "probe/parsers.hpp"
#include "rules/known/stack_facts.hpp"

#include <doctest/doctest.h>
#include <fstream>
#include <sstream>

using namespace icheck;
using knowledge::FactMap;

namespace {

std::string fixture(const std::string& rel) {
  std::ifstream in(std::string(ICHECK_TEST_DATA) + "/fixtures/" + rel);
  std::ostringstream ss;
  ss << in.rdbuf();
  auto all = ss.str();
  return all.substr(all.find('\n') + 1);  // the # source: line is provenance
}

probe::IbDevice device(const std::string& name) {
  probe::IbDevice d;
  d.name = name;
  d.node_type = "1: CA";
  probe::IbPort p;
  p.device = name;
  p.port = 1;
  d.ports.push_back(p);
  return d;
}

bool fires(const FactMap& facts, const std::string& id) {
  for (const auto& hit : knowledge::evaluate(knowledge::rows(), facts))
    if (hit.row->id == id)
      return true;
  return false;
}

}  // namespace

TEST_CASE("node facts: kernel.config.* from a config read whole, unknown otherwise") {
  probe::NodeFacts node;
  node.kernel_config = probe::parse_kernel_config(
      "source /proc/config.gz\n" + fixture("kernel-config/config-6.18-p2pdma-not-set.txt") +
      "\nread 0\nmemory_peers absent\n");
  FactMap facts;
  rules::known::add_node(facts, node);
  CHECK(facts.get("kernel.config.CONFIG_PCI_P2PDMA") == "unset");
  CHECK(facts.get("kernel.memory_peers") == "false");
  node.kernel_config = probe::parse_kernel_config("source /proc/config.gz\nread none\n");
  FactMap unread;
  rules::known::add_node(unread, node);
  CHECK_FALSE(unread.get("kernel.config.CONFIG_PCI_P2PDMA"));
  CHECK(rules::known::provided_fact("kernel.config.CONFIG_PCI_P2PDMA"));
  CHECK_FALSE(rules::known::provided_fact("kernel.config.CONFIG_NOT_READ"));
}

TEST_CASE("node facts: EFA devices beside others the pod can open") {
  probe::NodeFacts node;
  node.sysfs_infiniband = true;
  node.sysfs_devices = {device("rdmap79s0"), device("rdmap80s0"), device("mlx5_0")};
  node.platform.efa_devices = {"rdmap79s0", "rdmap80s0"};
  FactMap mixed;
  rules::known::add_node(mixed, node);
  CHECK(mixed.get("rdma.non_efa_beside_efa") == "true");
  CHECK(fires(mixed, "efa-beside-other-rdma-devices"));
  // The host's mlx5 stays in sysfs but its uverbs node is not the pod's: moved out, not judged.
  node.unallocated_devices = {node.sysfs_devices.back()};
  node.sysfs_devices.pop_back();
  FactMap plugin_only;
  rules::known::add_node(plugin_only, node);
  CHECK(plugin_only.get("rdma.non_efa_beside_efa") == "false");
  CHECK_FALSE(fires(plugin_only, "efa-beside-other-rdma-devices"));
  node.allocation_known = false;
  FactMap unknown;
  rules::known::add_node(unknown, node);
  CHECK_FALSE(unknown.get("rdma.non_efa_beside_efa"));
}

TEST_CASE("node facts: devices Mooncake would take that are unusable or have limited P_Key") {
  probe::NodeFacts node;
  node.sysfs_infiniband = true;
  node.sysfs_devices =
      probe::parse_sysfs_ib(fixture("sysfs-infiniband/mooncake-candidates-pkey-node-type.txt"));
  FactMap facts;
  rules::known::add_node(facts, node);
  CHECK(facts.get("rdma.unusable_devices") == "1");
  CHECK(facts.get("rdma.limited_pkey_devices") == "1");
  CHECK(facts.get("rdma.non_efa_beside_efa") == "false");
  FactMap gpud;
  probe::NodeFacts h100;
  h100.sysfs_infiniband = true;
  h100.sysfs_devices =
      probe::parse_sysfs_ib(fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt"));
  rules::known::add_node(gpud, h100);
  CHECK(gpud.get("rdma.unusable_devices") == "0");
  CHECK_FALSE(gpud.get("rdma.limited_pkey_devices"));  // no pkeys read: unknown
}
