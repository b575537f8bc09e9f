// The fabric as the pod sees it: allocated HCAs, each port against its adapter's rate, RoCE
// GIDs on the pod's netdevs and the GID index variables, Down+LinkUp, cut output, Grace.
#include "test_node_fixture.hpp"

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

namespace {

// synthetic: /sys/class/infiniband_verbs/uverbsN/ibdev for the gpud H100 node, uverbsN -> nics[N]
std::string uverbs_map() {
  std::string t;
  for (std::size_t i = 0; i < h100_nics().size(); ++i)
    t += "uverbs" + std::to_string(i) + " " + h100_nics()[i] + "\n";
  return t;
}

// The pod was given the first `n` HCAs (uverbs0..n-1), as an RDMA device plugin does.
Probe allocated(int n) {
  auto p = healthy_h100();
  std::string dev = "rdma_cm\n";
  for (int i = 0; i < n; ++i)
    dev += "uverbs" + std::to_string(i) + "\n";
  p.set("dev_infiniband", dev).set("uverbs_ibdev", uverbs_map());
  return p;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

std::string gpud_sysfs() {
  return fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt");
}

std::vector<report::Finding> failed(const std::vector<report::Finding>& fs) {
  std::vector<report::Finding> out;
  for (const auto& f : fs)
    if (f.status == Status::fail)
      out.push_back(f);
  return out;
}

// The RoCE bond of the gpud node carries KV (named in UCX_NET_DEVICES); GIDs from the ucx #9484
// show_gids capture, which is of a device with the same name.
// synthetic (the probe's pod_addrs lines): the addresses of bond1 as the GIDs of that capture
// give them, IPv4 30.153.10.175 and the MAC 08:c0:eb:79:39:1a behind fe80::ac0:ebff:fe79:391a.
const std::string bond1_addrs = "inet 127.0.0.1\ninet 30.153.10.175\n"
                                "inet6 bond1 fe800000000000000ac0ebfffe79391a\n"
                                "link bond1 08:c0:eb:79:39:1a\nlink lo 00:00:00:00:00:00\n";

Probe roce_bond(const std::string& pod_netdevs, const std::string& env = "",
                const std::string& pod_addrs = bond1_addrs) {
  auto p = healthy_h100();
  p.set("roce_gids", fixture("show_gids/bond-vxlan-v1-v2-ipv4-ucx9484.txt"))
      .set("pod_netdevs", pod_netdevs)
      .set("pod_addrs", pod_addrs)
      .set("transport_env", "UCX_NET_DEVICES=mlx5_bond_0:1\n" + env);
  return p;
}

} // namespace

TEST_CASE("allocation: ports, devices and affinity count the pod's HCAs, the rest are shown as not "
          "allocated") {
  auto p = allocated(4);
  p.set("transport_env", "UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_4:1,mlx5_5:1\n");
  auto fs = judge(p);
  auto ports = find(fs, "ports");
  CHECK(ports.status == Status::ok);
  CHECK(contains(ports.detail, "4/4 ports Active, 400 Gb/s InfiniBand"));
  CHECK(contains(ports.detail, "not allocated to this pod (no uverbs node), not judged: mlx5_6, "
                               "mlx5_7, mlx5_8, mlx5_9, mlx5_bond_0"));
  auto dev = find(fs, "devices");
  CHECK(dev.status == Status::ok);
  CHECK(contains(dev.detail, "uverbs0..3 visible in the pod for this pod's 4 HCAs"));
  // The NICs of GPU4-7 are not the pod's: those GPUs' nearest allocated NIC crosses the CPU.
  auto aff = find(fs, "nic affinity").detail;
  CHECK(contains(aff,
                 "4/8 GPUs have a PIX/PXB NIC; nearest NIC crosses the CPU for GPU4→mlx5_0 NODE"));
  CHECK_FALSE(contains(aff, "mlx5_6"));
  CHECK(find(fs, "UCX_NET_DEVICES").status == Status::ok);
  CHECK(failed(fs).empty());
  CHECK(rules::node_summary(p.facts()) == "8× NVIDIA H100 80GB HBM3 · 4× mlx5 400 Gb/s InfiniBand");
}

TEST_CASE("allocation: UCX_NET_DEVICES naming an HCA in sysfs that the pod cannot open fails") {
  auto p = allocated(4);
  p.set("transport_env", "UCX_NET_DEVICES=mlx5_0:1,mlx5_6:1\n");
  auto f = find(judge(p), "UCX_NET_DEVICES");
  CHECK(f.status == Status::fail);
  CHECK(contains(
      f.detail,
      "not allocated to this pod (in sysfs, no uverbs node; UCX finds no RDMA device there"));
  CHECK(contains(f.detail, "mlx5_6:1"));
  CHECK(f.next == "UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_4:1,mlx5_5:1");
}

TEST_CASE("adapter rate: ConnectX-7 ports at NDR are ok, all at HDR is a uniform downgrade, one at "
          "HDR is named") {
  auto p = healthy_h100();
  auto ok = find(judge(p), "adapter rate");
  CHECK(ok.status == Status::ok);
  CHECK(ok.detail == "8/8 InfiniBand ports at their adapter's speed: ConnectX-7 (NDR 400 Gb/s)");

  p.set("sysfs_ib", replace_all(gpud_sysfs(), "400 Gb/sec (4X NDR)", "200 Gb/sec (4X HDR)"));
  auto fs = judge(p);
  auto all = find(fs, "adapter rate");
  CHECK(all.layer == Layer::fabric);
  CHECK(all.status == Status::warn);
  CHECK(contains(all.detail,
                 "uniform downgrade: all 8 Active InfiniBand ports run 200 Gb/sec (4X HDR) on "
                 "ConnectX-7 (NDR 400 Gb/s) adapters"));
  CHECK(contains(all.next, "on the node: ibstat mlx5_0 1 (Rate)"));
  CHECK(find(fs, "ports").status == Status::ok); // "all Active" alone would have hidden it
  CHECK_FALSE(has(fs, "rate"));                  // one rate everywhere: no mixed-rate finding

  auto one = gpud_sysfs();
  auto at = one.find("400 Gb/sec (4X NDR)", one.find("==> mlx5_5/ports/1/rate"));
  one.replace(at, 19, "200 Gb/sec (4X HDR)");
  p.set("sysfs_ib", one);
  auto single = find(judge(p), "adapter rate");
  CHECK(single.status == Status::warn);
  CHECK(contains(
      single.detail,
      "1/8 InfiniBand ports below their adapter's speed: mlx5_5:1 at 200 Gb/sec (4X HDR)"));
}

TEST_CASE("adapter rate: a ConnectX-7 at 2X NDR (a 200G board) is not a downgrade") {
  auto p = healthy_h100();
  p.set("sysfs_ib", replace_all(gpud_sysfs(), "400 Gb/sec (4X NDR)", "200 Gb/sec (2X NDR)"));
  CHECK(find(judge(p), "adapter rate").status == Status::ok);
}

TEST_CASE(
    "port Down with physical state LinkUp is not the cable: subnet manager or an unconfigured VF") {
  auto p = healthy_h100();
  // The network-operator #249 capture: ibstat of an SR-IOV IB VF inside a pod (sysfs unreadable).
  p.set("sysfs_ib", "")
      .set("ibstat", fixture_from("ibstat/sriov-vf-in-pod-down-linkup.txt", "CA '"));
  p.set("transport_env", "UCX_NET_DEVICES=mlx5_7:1\n");
  auto f = find(judge(p), "port mlx5_7:1");
  CHECK(f.status == Status::fail);
  CHECK(contains(
      f.detail,
      "Down with the physical link up: not the cable; no subnet manager configured this port"));
  CHECK_FALSE(contains(f.detail, "cable, transceiver"));
  CHECK(contains(f.next, "sminfo -C mlx5_7 -P 1"));
  CHECK(contains(f.next, "ip link set <pf> vf <n> node_guid"));
  CHECK_FALSE(contains(f.next, "check the cable"));
}

TEST_CASE("output cut before the sysfs section: RDMA devices unknown, never 'no RDMA device'") {
  auto raw = "@@icheck:begin hostname@@\nworker-0\n@@icheck:end hostname rc=0@@\n@@icheck:begin "
             "kernel@@\n5.15";
  auto facts = probe::parse_node_probe(raw);
  rules::NodeContext ctx;
  ctx.disagg = true;
  auto fs = rules::judge_node(facts, ctx);
  auto hca = find(fs, "hca");
  CHECK(hca.status == Status::skipped);
  CHECK(contains(hca.detail, "cut before /sys/class/infiniband was read"));
  CHECK_FALSE(contains(hca.detail, "no RDMA device"));
  CHECK(rules::node_summary(facts) == "no GPU visible · RDMA devices unknown (probe output cut)");
  // The same probe, complete, on a machine without HCAs: that is "no RDMA device".
  auto whole = probe::parse_node_probe(
      std::string(raw) +
      "\n@@icheck:end kernel rc=0@@\n"
      "@@icheck:begin sysfs_ib@@\n@@icheck:end sysfs_ib rc=absent@@\n@@icheck:done@@\n");
  auto none = find(rules::judge_node(whole, ctx), "hca");
  CHECK(none.status == Status::fail);
  CHECK(contains(none.detail, "no RDMA device"));
}

TEST_CASE("output cut inside /dev/infiniband: device nodes unknown, not 'not mounted'") {
  auto p = healthy_h100();
  std::string raw;
  for (const auto& [name, s] : p.sections)
    if (name == "sysfs_ib" || name == "hostname")
      raw += s;
  raw += "@@icheck:begin dev_infiniband@@\nrdma_cm\n";
  auto fs = rules::judge_node(probe::parse_node_probe(raw), {});
  auto dev = find(fs, "devices");
  CHECK(dev.status == Status::skipped);
  CHECK(contains(dev.detail, "cut before /dev/infiniband was listed"));
}

TEST_CASE("Grace (GB200, every GPU-NIC path SYS): affinity and 'not a GPU node' stay right") {
  auto p = healthy_h100();
  p.set("nvidia_smi_list", "GPU 0: NVIDIA GB200 (UUID: GPU-00000000-0000-0000-0000-000000000000)\n")
      .set("nvidia_smi_topo", fixture("nvidia-smi-topo/gb200-4gpu-6nic-sglang11208-partial.txt"))
      .set("transport_env", "UCX_TLS=rc_x,cuda_copy,cuda_ipc\n")
      .erase("nvidia_smi_nvlink");
  rules::NodeContext ctx;
  ctx.disagg = true;
  auto fs = judge(p, ctx);
  CHECK(failed(fs).empty());
  auto aff = find(fs, "nic affinity");
  CHECK(aff.status == Status::ok);
  CHECK(contains(aff.detail, "normal on Grace"));
  auto net = find(fs, "UCX_NET_DEVICES");
  CHECK(net.status == Status::skipped);
  CHECK(contains(net.detail, "on Grace every GPU-NIC path is SYS"));
  CHECK_FALSE(contains(net.detail, "no NIC columns"));
  CHECK(contains(net.next, "UCX_NET_DEVICES=mlx5_0:1"));
  // No port is judged "not GPU-affine" on Grace; the IB ports count as the compute fabric.
  for (const auto& f : fs)
    CHECK_FALSE(contains(f.detail, "not GPU-affine"));
  // --local on a Grace node is a GPU node.
  ctx.local = true;
  for (const auto& f : judge(p, ctx))
    CHECK_FALSE(contains(f.detail, "not a GPU node"));
  p.erase("sysfs_ib").erase("dev_infiniband").erase("ibv_devinfo").erase("nvidia_driver");
  for (const auto& f : judge(p, ctx))
    CHECK_FALSE(contains(f.detail, "not a GPU node"));
}

TEST_CASE("roce gids: a RoCE port whose GIDs all sit outside the pod's namespace fails, naming "
          "netdev and fix") {
  auto fs = judge(roce_bond("lo\neth0\n"));
  auto f = find(fs, "roce gids");
  CHECK(f.layer == Layer::rdma_access);
  CHECK(f.status == Status::fail);
  CHECK(contains(f.detail, "mlx5_bond_0:1 (RoCE): every GID sits on b3.vxlan.30100, bond1, not in "
                           "the pod's network namespace (the pod has lo, eth0)"));
  CHECK(contains(f.next, "hostNetwork: true"));
  CHECK(contains(f.next, "k8s.v1.cni.cncf.io/networks"));
  // hostNetwork (or the right secondary network): bond1 is the pod's.
  auto ok = find(judge(roce_bond("lo\nbond1\nb3.vxlan.30100\n")), "roce gids");
  CHECK(ok.status == Status::ok);
}

TEST_CASE("roce gids: a host netdev named like the pod's (bond1 on both sides) is told apart by "
          "its addresses") {
  // The pod's own bond1 (say, a CNI interface of that name) has other addresses than the host's
  // bond1 that carries the GIDs: by name alone this was ok, a false green.
  std::string pods_own = "inet 127.0.0.1\ninet 10.244.3.7\n"
                         "inet6 bond1 fe80000000000000a8c1abfffe0b0c0d\n"
                         "link bond1 aa:c1:ab:0b:0c:0d\n";
  auto host = find(judge(roce_bond("lo\nbond1\nb3.vxlan.30100\n", "", pods_own)), "roce gids");
  CHECK(host.status == Status::fail);
  CHECK(contains(host.detail, "bond1 (the host's: the pod's bond1 has other addresses)"));
  CHECK(contains(host.detail, "not in the pod's network namespace"));
  // The same netdev names with the GIDs' own addresses: the pod's (hostNetwork, or the VF's).
  auto own = find(judge(roce_bond("lo\nbond1\nb3.vxlan.30100\n")), "roce gids");
  CHECK(own.status == Status::ok);
  // Only the link-local GIDs to go by, the MAC says which bond1 it is.
  auto p =
      roce_bond("lo\nbond1\n", "", "inet unread\ninet6 unread\nlink bond1 08:c0:eb:79:39:1a\n");
  p.set("roce_gids", "mlx5_bond_0 1 1 fe80:0000:0000:0000:0ac0:ebff:fe79:391a v2 bond1\n");
  CHECK(find(judge(p), "roce gids").status == Status::ok);
}

TEST_CASE("roce gids: the pod's addresses unread is a warning, never ok") {
  auto f = find(judge(roce_bond("lo\nbond1\n", "", "inet unread\ninet6 unread\n")), "roce gids");
  CHECK(f.status == Status::warn);
  CHECK(contains(f.detail, "named like the pod's netdevs, but the pod's addresses were not read"));
  // An older probe without the section at all: the same.
  auto p = roce_bond("lo\nbond1\n");
  p.erase("pod_addrs");
  CHECK(find(judge(p), "roce gids").status == Status::warn);
  // And the index it names is not called right.
  auto idx =
      find(judge(roce_bond("lo\nbond1\n", "UCX_IB_GID_INDEX=5\n", "inet unread\ninet6 unread\n")),
           "roce addressing");
  CHECK(idx.status == Status::warn);
  CHECK(contains(idx.detail, "that the pod's addresses do not confirm"));
}

TEST_CASE("roce gids: a BlueField bond that carries no KV is not judged") {
  auto p = healthy_h100();
  p.set("roce_gids", fixture("show_gids/bond-vxlan-v1-v2-ipv4-ucx9484.txt"))
      .set("pod_netdevs", "lo\neth0\n");
  auto fs = judge(p);
  CHECK_FALSE(has(fs, "roce gids"));
  CHECK(failed(fs).empty());
}

TEST_CASE("GID index: v1, link-local and empty entries warn with the RoCE v2 IPv4 index on the "
          "pod's netdev") {
  std::string pod = "lo\nbond1\n";
  auto v1 = find(judge(roce_bond(pod, "UCX_IB_GID_INDEX=0\n")), "roce addressing");
  CHECK(v1.layer == Layer::ucx);
  CHECK(v1.status == Status::warn);
  CHECK(v1.detail ==
        "UCX_IB_GID_INDEX=0 names RoCE v1 on mlx5_bond_0:1; the RoCE v2 IPv4 entry is index 5");
  CHECK(v1.next == "env: UCX_IB_GID_INDEX=5");
  auto ll = find(judge(roce_bond(pod, "UCX_IB_GID_INDEX=1\n")), "roce addressing");
  CHECK(contains(ll.detail, "a link-local GID"));
  auto empty = find(judge(roce_bond(pod, "UCX_IB_GID_INDEX=9\n")), "roce addressing");
  CHECK(contains(empty.detail, "an empty entry"));
  // Past the entries the probe read (it stops after 16 unused in a row): unknown, not empty.
  auto far = roce_bond(pod, "UCX_IB_GID_INDEX=40\n");
  far.set("roce_gids",
          fixture("show_gids/bond-vxlan-v1-v2-ipv4-ucx9484.txt") + "mlx5_bond_0 1 scanned 21\n");
  auto past = find(judge(far), "roce addressing");
  CHECK(contains(past.detail, "an entry past the ones read"));
  CHECK_FALSE(contains(past.detail, "empty"));
  auto vxlan = find(judge(roce_bond(pod, "NCCL_IB_GID_INDEX=3\n")), "nccl gid index");
  CHECK(vxlan.status == Status::warn);
  CHECK(contains(vxlan.detail, "a GID on b3.vxlan.30100, not in the pod on mlx5_bond_0:1"));
  CHECK(vxlan.next == "env: NCCL_IB_GID_INDEX=5");
  auto right = find(judge(roce_bond(pod, "UCX_IB_GID_INDEX=5\n")), "roce addressing");
  CHECK(right.status == Status::ok);
}

TEST_CASE("GID index unset: the generic advice gives way to what the GID table says") {
  auto unset = find(judge(roce_bond("lo\nbond1\n")), "roce addressing");
  CHECK(unset.status == Status::ok);
  CHECK(contains(unset.detail, "UCX picks a RoCE v2 IPv4 GID (index 5)"));
  CHECK_FALSE(contains(unset.detail, "Dynamo's guide"));
  // Only v1 / link-local entries on the pod's netdev: routed RoCE has nothing to use.
  auto p = roce_bond("lo\nbond1\n");
  p.set("roce_gids", "mlx5_bond_0 1 0 fe80:0000:0000:0000:0ac0:ebff:fe79:391a v1 bond1\n");
  auto none = find(judge(p), "roce addressing");
  CHECK(none.status == Status::warn);
  CHECK(contains(none.detail, "no RoCE v2 IPv4 GID on the pod's netdevs for mlx5_bond_0:1"));
  CHECK(contains(none.next, "ip -4 addr show dev bond1 in the pod"));
}

namespace {

// The pod was given 4 of the node's 9 HCAs (uverbs0..3), but /sys/class/infiniband_verbs was not
// there to say which: every HCA of the node stays in sysfs_devices.
Probe allocation_unread() {
  auto p = healthy_h100();
  p.set("dev_infiniband", "rdma_cm\nuverbs0\nuverbs1\nuverbs2\nuverbs3\n").absent("uverbs_ibdev");
  return p;
}

}  // namespace

TEST_CASE(
    "allocation unknown: a port not Active may be the pod's, so 'ports' warns instead of ok") {
  auto p = allocation_unread();
  // mlx5_5 is Down: on its own a warn (only GPU0-1 have a PIX NIC in this table, and
  // UCX_NET_DEVICES is unset), and the rest of the node's ports are Active.
  p.set("sysfs_ib", replace_all(gpud_sysfs(), "==> mlx5_5/ports/1/state <==\n4: ACTIVE",
                                "==> mlx5_5/ports/1/state <==\n1: DOWN"))
      .set("nvidia_smi_topo", topo_table(8, h100_nics(), 2))
      .set("transport_env", "NIXL_LOG_LEVEL=INFO\n");
  auto facts = p.facts();
  CHECK_FALSE(facts.allocation_known);
  auto fs = rules::judge_node(facts, {});
  auto ports = find(fs, "ports");
  CHECK(ports.status == Status::warn);
  CHECK(contains(ports.detail, "8/9 ports Active"));
  CHECK(contains(ports.detail,
                 "which HCAs are the pod's is unknown (/sys/class/infiniband_verbs is "
                 "absent; 4 uverbs nodes for 9 HCAs): its own may be one that is not Active"));
  CHECK(contains(ports.next, "/sys/class/infiniband_verbs"));
  CHECK(find(fs, "port mlx5_5:1").status == Status::warn);

  // Every port Active: whichever HCAs are the pod's, theirs are Active.
  p.set("sysfs_ib", gpud_sysfs());
  CHECK(find(judge(p), "ports").status == Status::ok);
}

TEST_CASE(
    "allocation unknown: UCX_NET_DEVICES and NIC affinity are not judged ok on the node's HCAs") {
  auto p = allocation_unread();
  p.set("transport_env", "UCX_NET_DEVICES=mlx5_6:1,mlx5_7:1\n");
  auto fs = judge(p);
  auto net = find(fs, "UCX_NET_DEVICES");
  CHECK(net.status == Status::warn);
  CHECK(contains(net.detail,
                 "UCX_NET_DEVICES=mlx5_6:1,mlx5_7:1: every listed port is Active, but which "
                 "HCAs are the pod's is unknown (/sys/class/infiniband_verbs is absent"));
  auto aff = find(fs, "nic affinity");
  CHECK(aff.status == Status::warn);
  CHECK_FALSE(aff.required);
  CHECK(contains(aff.detail, "8/8 GPUs have a PIX/PXB NIC among the node's"));

  // The map read: the same names are judged (mlx5_6/7 are not the pod's: a fail, not a guess).
  p.set("uverbs_ibdev", uverbs_map());
  CHECK(p.facts().allocation_known);
  CHECK(find(judge(p), "UCX_NET_DEVICES").status == Status::fail);
  CHECK(find(judge(p), "ports").status == Status::ok);
}

TEST_CASE("allocation known without the map: one uverbs node per HCA, or a single HCA") {
  auto p = healthy_h100();  // uverbs0..8 for the 9 HCAs, no uverbs_ibdev section
  CHECK(p.facts().allocation_known);
  CHECK(find(judge(p), "UCX_NET_DEVICES").status == Status::ok);
  CHECK(find(judge(p), "nic affinity").status == Status::ok);
  // The map names none of the pod's nodes (the device plugin renamed them): still unknown.
  p = allocation_unread();
  p.set("uverbs_ibdev", "uverbs7 mlx5_8\nuverbs8 mlx5_9\n");
  CHECK_FALSE(p.facts().allocation_known);
  CHECK(contains(find(judge(p), "devices").detail, "uverbs0..3 visible in the pod for 9 HCAs"));
}
