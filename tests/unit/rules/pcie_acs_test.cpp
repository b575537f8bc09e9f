// PCIe ACS: only ReqRedir+/CmpltRedir+ redirect peer-to-peer traffic, and only on a bridge the
// traffic between the pod's GPU and NIC crosses (below the lowest bridge they share).
#include "test_node_fixture.hpp"

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

namespace {

const char* kOneSwitch = "pcie/pci-paths-nic-gpu-one-switch-rccl547-synthetic.txt";

Probe with_acs(const std::string& lspci, const std::string& pci_links) {
  auto p = healthy_h100();
  p.set("pci_links", pci_links);
  p.set("iommu", "cmdline BOOT_IMAGE=/boot/vmlinuz ro iommu=pt\nunit dmar0\nclass present\n");
  p.set("lspci_acs", lspci);
  return p;
}

}  // namespace

TEST_CASE("acs: SrcValid+ alone is not redirection (nccl #606): ok, not a warning") {
  auto acs = find(
      judge(with_acs(fixture("pcie/lspci-acsctl-srcvalid-only-nccl606.txt"), fixture(kOneSwitch))),
      "acs");
  CHECK(acs.layer == Layer::gpudirect);
  CHECK(acs.status == Status::ok);
  CHECK(acs.detail ==
        "PCIe ACS redirection off on every bridge lspci shows (no ReqRedir+/CmpltRedir+)");
}

TEST_CASE("acs: ReqRedir+ on a root port above the switch both GPU and NIC sit under is not "
          "between them (rccl #547)") {
  auto acs = find(judge(with_acs(fixture("pcie/lspci-acs-root-port-redirect-rccl547.txt"),
                                 fixture(kOneSwitch))),
                  "acs");
  CHECK(acs.status == Status::ok);
  CHECK(acs.detail == "PCIe ACS redirects peer-to-peer requests (ReqRedir+/CmpltRedir+) on 1 "
                      "bridge (0000:40:01.1), none between this pod's GPUs and NICs (their sysfs "
                      "paths)");
}

TEST_CASE("acs: ReqRedir+ on the switch port above the GPU is between GPU and NIC: warn") {
  auto acs =
      find(judge(with_acs(fixture("pcie/lspci-acs-switch-port-above-gpu-rccl547-synthetic.txt"),
                          fixture(kOneSwitch))),
           "acs");
  CHECK(acs.status == Status::warn);
  CHECK(acs.required);
  CHECK(contains(acs.detail, "on 1 bridge (0000:44:01.0) between this pod's GPUs and NICs"));
  CHECK(contains(acs.next, "disable ACS on the PCIe switches"));
}

TEST_CASE("acs: redirecting bridges whose place is not read (nccl #523, grep kept no headers) "
          "warn, counting only ReqRedir+/CmpltRedir+") {
  auto acs = find(judge(with_acs(fixture("pcie/lspci-acsctl-redirect-enabled-nccl523.txt"),
                                 fixture(kOneSwitch))),
                  "acs");
  CHECK(acs.status == Status::warn);
  CHECK(contains(acs.detail, "on 2 bridges; whether they sit between the GPUs and NICs was not "
                             "read"));
  CHECK(contains(acs.next, "lspci -tv"));
  // With headers but no sysfs path for the GPU and NIC: named, still not placed.
  auto unplaced =
      find(judge(with_acs(fixture("pcie/lspci-acs-root-port-redirect-rccl547.txt"),
                          "pci nic mlx5_0 0000:45:00.0\npci gpu 0000:4a:00.0 0000:4a:00.0\n")),
           "acs");
  CHECK(unplaced.status == Status::warn);
  CHECK(contains(unplaced.detail, "on 1 bridge (0000:40:01.1); whether they sit between"));
}
