#include "test_node_fixture.hpp"

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

TEST_CASE("node: healthy 8xH100 InfiniBand is ok at every required check, in layer order") {
  auto fs = judge(healthy_h100());
  for (const auto& f : fs)
    if (f.required) CHECK_MESSAGE(f.status == Status::ok, f.name << ": " << f.detail);
  for (std::size_t i = 1; i < fs.size(); ++i) CHECK(fs[i - 1].layer <= fs[i].layer);
  CHECK(find(fs, "ports").detail == "9/9 ports Active, 400/200 Gb/s InfiniBand and RoCE (link layer Ethernet)");
  CHECK(find(fs, "devices").detail == "uverbs0..8 visible in the pod");
  CHECK(find(fs, "verbs").detail == "verbs opens 9/9 devices");
  CHECK(find(fs, "memlock").detail ==
        "exec shell: CAP_IPC_LOCK effective, the memlock limit does not apply");
  CHECK(find(fs, "peer-memory").detail == "nvidia_peermem loaded");
  CHECK(find(fs, "gdrcopy").status == Status::ok);
  CHECK_FALSE(find(fs, "gdrcopy").required);
  CHECK(find(fs, "ucx gpudirect").detail == "UCX registers cuda memory on mlx5_0: GPUDirect RDMA confirmed");
  CHECK(find(fs, "topology").detail == "NV18 between all 8 GPUs");
  CHECK(find(fs, "links").detail == "18/18 NVLinks active on 1 GPU");
  CHECK(find(fs, "nic affinity").detail == "8/8 GPUs have a PIX/PXB NIC");
  CHECK(find(fs, "UCX_NET_DEVICES").status == Status::ok);
  CHECK(find(fs, "transports").detail == "rc_mlx5, dc_mlx5 on 2 devices (mlx5_0:1, mlx5_1:1)");
  CHECK(find(fs, "version").detail == "UCX 1.19.0");
  CHECK_FALSE(has(fs, "rate"));  // the RoCE bond is not GPU-affine: its 200 Gb/s is not "mixed"
}

TEST_CASE("node: summary line and typed facts") {
  auto f = healthy_h100().facts();
  CHECK(rules::node_summary(f) ==
        "8× NVIDIA H100 80GB HBM3 · 8× mlx5 400 Gb/s InfiniBand + 1× mlx5_bond 200 Gb/s RoCE");
  probe::NodeFacts empty;
  empty.script_complete = true;
  CHECK(rules::node_summary(empty) == "no GPU visible · no RDMA device");
  // Output that ended before the sysfs section is not "no RDMA device".
  CHECK(rules::node_summary(probe::NodeFacts{}) == "no GPU visible · RDMA devices unknown (probe output cut)");
  auto j = rules::node_facts_json(f);
  CHECK(j.at("hostname").as_string() == "gpu-a01");
  CHECK(j.at("kernel").as_string() == "5.15.0-105-generic");
  auto& hcas = j.at("hcas").as_array();
  REQUIRE(hcas.size() == 9);
  auto& port = hcas[0].at("ports").as_array()[0].as_object();
  CHECK(port.at("state").as_string() == "active");
  CHECK(port.at("rateGbps").as_double() == 400);
  CHECK(port.at("linkLayer").as_string() == "infiniband");
  CHECK(port.at("expectedGbps").as_double() == 400);  // what --transfer judges bandwidth against
  CHECK(hcas[0].at("model").as_string() == "ConnectX-7");
  CHECK(hcas[0].at("boardId").as_string() == "MT_0000000838");
  CHECK(j.at("unallocatedHcas").as_array().empty());
  CHECK(j.at("memlock").at("unlimited").as_bool());
  CHECK(j.at("memlock").at("soft").as_string() == "unlimited");
  CHECK(j.at("capIpcLock").as_bool());
  CHECK(j.at("peerMemory").at("nvidiaPeermem").as_bool());
  CHECK(j.at("nvidiaDriver").at("version").as_string() == "535.161.08");
  CHECK_FALSE(j.at("nvidiaDriver").at("openKernelModule").as_bool());
  CHECK(j.at("gdrcopy").at("devGdrdrv").as_bool());
  CHECK(j.at("gpus").as_array().size() == 8);
  CHECK(j.at("ucx").at("version").as_string() == "1.19.0");
  CHECK(j.at("ucx").at("cudaMemory").as_bool());
  CHECK(j.at("transportEnv").at("UCX_NET_DEVICES").as_string().starts_with("mlx5_0:1,"));
  CHECK(j.at("devInfiniband").as_array().size() == 19);
}

TEST_CASE("node: UCX_NET_DEVICES unset while a non-GPU-affine port is Active: warn with the paste-ready value") {
  auto p = healthy_h100();
  p.set("transport_env", "NIXL_LOG_LEVEL=INFO\n");
  auto f = find(judge(p), "UCX_NET_DEVICES");
  CHECK(f.layer == Layer::ucx);  // UCX's setting: the ucx layer (was filed under nvlink)
  CHECK(f.status == Status::warn);
  CHECK(f.detail == "UCX_NET_DEVICES unset: UCX may also use mlx5_bond_0:1 (Active, not GPU-affine)");
  CHECK(f.next == "UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1,mlx5_8:1,mlx5_9:1");
  p.set("transport_env", "UCX_NET_DEVICES=all\n");
  CHECK(find(judge(p), "UCX_NET_DEVICES").detail.starts_with("UCX_NET_DEVICES=all: UCX may also use mlx5_bond_0:1"));
}

TEST_CASE("node: UCX_NET_DEVICES naming an absent or not-Active device fails") {
  auto p = healthy_h100();
  p.set("transport_env", "UCX_NET_DEVICES=mlx5_0:1,mlx5_3:1\n");
  auto f = find(judge(p), "UCX_NET_DEVICES");
  CHECK(f.status == Status::fail);
  CHECK(f.detail == "UCX_NET_DEVICES=mlx5_0:1,mlx5_3:1: absent in this pod: mlx5_3:1");
  CHECK(f.next.starts_with("UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,"));

  auto sysfs = fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt");
  auto at = sysfs.find("==> mlx5_4/ports/1/state <==\n4: ACTIVE");
  REQUIRE(at != std::string::npos);
  sysfs.replace(sysfs.find("4: ACTIVE", at), 9, "1: DOWN");
  sysfs.replace(sysfs.find("5: LinkUp", at), 9, "2: Polling");
  p.set("sysfs_ib", sysfs).set("transport_env", "UCX_NET_DEVICES=mlx5_0:1,mlx5_4:1\n");
  auto fs = judge(p);
  f = find(fs, "UCX_NET_DEVICES");
  CHECK(f.status == Status::fail);
  CHECK(f.detail == "UCX_NET_DEVICES=mlx5_0:1,mlx5_4:1: not Active: mlx5_4:1 (1: DOWN)");
  // The port itself: Polling on a GPU-affine NIC that carries traffic is a fail at fabric.
  auto port = find(fs, "port mlx5_4:1");
  CHECK(port.layer == Layer::fabric);
  CHECK(port.status == Status::fail);
  CHECK(port.detail ==
        "mlx5_4:1 1: DOWN/2: Polling: Polling: no link partner (cable, transceiver or switch port) "
        "(named in UCX_NET_DEVICES)");
}
