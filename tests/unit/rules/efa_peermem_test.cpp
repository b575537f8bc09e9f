// GPUDirect RDMA over AWS EFA: libfabric's EFA provider registers GPU memory through
// efa_nv_peermem or DMA-BUF; nvidia_peermem and UCX's IB memory domain are the mlx5 path.
#include "test_node_fixture.hpp"

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

namespace {

// An EFA worker as the efa test in test_node_platform builds it, without efa_nv_peermem; the
// gpud #39 lsmod (healthy_h100's) still lists nvidia_peermem, which serves mlx5 HCAs only.
Probe efa_without_efa_peermem() {
  Probe p = healthy_h100();
  p.set("sysfs_ib",
        "==> efa_0/ports/1/state <==\n4: ACTIVE\n==> efa_0/ports/1/phys_state <==\n5: LinkUp\n"
        "==> efa_0/ports/1/rate <==\n100 Gb/sec (4X EDR)\n==> efa_0/ports/1/link_layer "
        "<==\nUnknown\n");
  p.set("dev_infiniband", "uverbs0")
      .erase("ibv_devinfo")
      .erase("ibstat")
      .erase("nvidia_smi_topo")
      .erase("ucx_info_d");
  p.set("pci_links", "pci nic efa_0 0000:10:1b.0\nvendor 0x1d0f\n");
  p.set("fi_info", fixture("efa/fi-info-p-efa-synthetic.txt"));
  p.set("transport_env", "NIXL_LOG_LEVEL=INFO\n");
  return p;
}

void names_efa_not_mlx5(const report::Finding& f) {
  CAPTURE(f.detail);
  CAPTURE(f.next);
  CHECK(contains(f.detail, "efa_nv_peermem"));
  CHECK((contains(f.detail + f.next, "libfabric") || contains(f.detail + f.next, "LIBFABRIC")));
  CHECK_FALSE(contains(f.detail + f.next, "nvidia_peermem"));
  CHECK_FALSE(contains(f.detail + f.next, "nvidia-peermem"));
  CHECK_FALSE(contains(f.detail + f.next, "IB memory domain"));
}

}  // namespace

TEST_CASE("efa: no efa_nv_peermem and no DMA-BUF path fails naming efa_nv_peermem and libfabric, "
          "not nvidia_peermem") {
  auto p = efa_without_efa_peermem();
  auto f = find(judge(p), "peer-memory");  // proprietary 535 driver, kernel 5.15
  CHECK(f.layer == Layer::gpudirect);
  CHECK(f.status == Status::fail);
  CHECK(f.detail.starts_with("no efa_nv_peermem and no DMA-BUF path (proprietary kernel module "
                             "535.161.08, kernel 5.15.0-105-generic): libfabric cannot register "
                             "GPU memory on EFA"));
  names_efa_not_mlx5(f);
}

TEST_CASE("efa: the open kernel module on kernel >= 5.12 relies on DMA-BUF, unconfirmed until "
          "libfabric registers GPU memory") {
  auto p = efa_without_efa_peermem();
  p.set("kernel", "6.8.0-1015-aws")
      .set("nvidia_driver",
           "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build");
  auto f = find(judge(p), "peer-memory");
  CHECK(f.status == Status::warn);
  CHECK(f.detail.starts_with("no efa_nv_peermem: GPUDirect RDMA over EFA relies on DMA-BUF (open "
                             "kernel module 570.86.15, kernel 6.8.0-1015-aws)"));
  CHECK(contains(f.next, "nixl --transfer"));
  names_efa_not_mlx5(f);
}

TEST_CASE("efa: efa_nv_peermem loaded is GPUDirect RDMA over EFA") {
  auto p = efa_without_efa_peermem();
  p.set("proc_modules", "efa_nv_peermem 16384 0 - Live 0x0");
  auto f = find(judge(p), "peer-memory");
  CHECK(f.status == Status::ok);
  CHECK(f.detail == "efa_nv_peermem loaded: GPUDirect RDMA over EFA");
}
