#pragma once
// Node-rule test data: real fixtures (first "# source:" line dropped) assembled into the node
// probe's marked-section output and read back through parse_node_probe, so the rules are
// judged on facts built exactly the way the probe builds them.

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "probe/node_probe.hpp"
#include "report/model.hpp"
#include "rules/node/node.hpp"

namespace icheck::rules::test {

inline std::string fixture(const std::string& rel) {
  std::ifstream in(std::string(ICHECK_TEST_DATA) + "/fixtures/" + rel, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), rel);
  std::ostringstream ss;
  ss << in.rdbuf();
  auto all = ss.str();
  auto nl = all.find('\n');
  return nl == std::string::npos ? std::string() : all.substr(nl + 1);
}

// Lines of a fixture from the first one containing `from` (drops a pasted prompt or preamble).
inline std::string fixture_from(const std::string& rel, const std::string& from) {
  auto all = fixture(rel);
  auto at = all.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, rel);
  return all.substr(all.rfind('\n', at) == std::string::npos ? 0 : all.rfind('\n', at) + 1);
}

// The probe's raw output, section by section; absent() is "command not found" / "no such file".
struct Probe {
  std::map<std::string, std::string> sections;
  Probe& set(const std::string& name, const std::string& body, int rc = 0) {
    sections[name] = "@@icheck:begin " + name + "@@\n" + body + "\n@@icheck:end " + name + " rc=" +
                     std::to_string(rc) + "@@\n";
    return *this;
  }
  Probe& absent(const std::string& name) {
    sections[name] = "@@icheck:begin " + name + "@@\n@@icheck:end " + name + " rc=absent@@\n";
    return *this;
  }
  Probe& erase(const std::string& name) {
    sections.erase(name);
    return *this;
  }
  probe::NodeFacts facts() const {
    std::string raw;
    for (const auto& [_, s] : sections) raw += s;
    return probe::parse_node_probe(raw + "@@icheck:done@@\n");
  }
};

// An `nvidia-smi topo -m` table (new NICn header + legend): GPUs all NV18, GPU i PIX to nics[i]
// when i < affine, every other GPU-NIC cell `far`.
inline std::string topo_table(int gpus, const std::vector<std::string>& nics, int affine,
                              const std::string& far = "NODE") {
  std::string t = "\t";
  for (int g = 0; g < gpus; ++g) t += "GPU" + std::to_string(g) + "\t";
  for (std::size_t n = 0; n < nics.size(); ++n) t += "NIC" + std::to_string(n) + "\t";
  t += "CPU Affinity\tNUMA Affinity\tGPU NUMA ID\n";
  auto cell = [&](int g, std::size_t n) { return static_cast<int>(n) == g && g < affine ? "PIX" : far; };
  for (int g = 0; g < gpus; ++g) {
    t += "GPU" + std::to_string(g);
    for (int h = 0; h < gpus; ++h) t += h == g ? "\t X " : "\tNV18";
    for (std::size_t n = 0; n < nics.size(); ++n) t += std::string("\t") + cell(g, n);
    t += "\t0-55\t0\t\tN/A\n";
  }
  for (std::size_t n = 0; n < nics.size(); ++n) {
    t += "NIC" + std::to_string(n);
    for (int g = 0; g < gpus; ++g) t += std::string("\t") + cell(g, n);
    for (std::size_t m = 0; m < nics.size(); ++m) t += m == n ? "\t X " : "\tNODE";
    t += "\n";
  }
  t += "\nLegend:\n\n  X    = Self\n\nNIC Legend:\n\n";
  for (std::size_t n = 0; n < nics.size(); ++n) t += "  NIC" + std::to_string(n) + ": " + nics[n] + "\n";
  return t;
}

// A UCX >= 1.10 `ucx_info -d` (no full real capture with an mlx5 md exists in the fixtures;
// the layout follows src/tools/info/tl_info.c as the reference documents it).
inline std::string ucx_md(const std::string& md, const std::string& component, const std::string& types,
                          const std::vector<std::pair<std::string, std::string>>& tls,
                          const std::string& reg = "unlimited, cost: 180 nsec") {
  std::string t = "#\n# Memory domain: " + md + "\n#     Component: " + component + "\n#             register: " +
                  reg + "\n#         memory types: " + types + "\n#\n";
  for (const auto& [tl, dev] : tls)
    t += "#      Transport: " + tl + "\n#         Device: " + dev + "\n#           Type: " +
         (dev == "memory" || dev == "cuda" ? "intra-node" : "network") + "\n#  System device: " + dev +
         " (0)\n#\n";
  return t;
}

inline std::string ucx_tcp_only() {
  return ucx_md("posix", "posix", "host (access,alloc,cache)", {{"posix", "memory"}}) +
         ucx_md("cuda_cpy", "cuda_cpy", "host (reg), cuda (access,alloc,reg,detect)", {{"cuda_copy", "cuda"}}) +
         ucx_md("tcp", "tcp", "", {{"tcp", "eth0"}});
}

inline std::string ucx_ib(const std::vector<std::string>& devs, const std::string& ib_types,
                          const std::string& reg = "unlimited, cost: 180 nsec") {
  std::string t = ucx_tcp_only();
  for (const auto& d : devs)
    t += ucx_md(d, "ib", ib_types, {{"rc_mlx5", d + ":1"}, {"dc_mlx5", d + ":1"}, {"ud_mlx5", d + ":1"}}, reg);
  return t;
}

inline const std::vector<std::string>& h100_nics() {
  // The gpud H100 sysfs capture: 8 CX-7 IB HCAs and a BlueField-3 RoCE bond.
  static const std::vector<std::string> nics{"mlx5_0", "mlx5_1", "mlx5_4", "mlx5_5", "mlx5_6",
                                             "mlx5_7", "mlx5_8", "mlx5_9", "mlx5_bond_0"};
  return nics;
}

inline std::string uverbs(int n) {
  std::string t = "rdma_cm\n";
  for (int i = 0; i < n; ++i) t += "uverbs" + std::to_string(i) + "\numad" + std::to_string(i) + "\n";
  return t;
}

inline std::string ibv_devinfo(const std::vector<std::string>& names) {
  std::string t;
  for (const auto& n : names)
    t += "hca_id:\t" + n + "\n\ttransport:\t\t\tInfiniBand (0)\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n\n";
  return t;
}

// 8x H100 SXM, 8x CX-7 400G InfiniBand, peermem, IPC_LOCK, full tools: the healthy baseline.
inline Probe healthy_h100() {
  Probe p;
  p.set("hostname", "gpu-a01")
      .set("kernel", "5.15.0-105-generic")
      .set("sysfs_ib", fixture("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt"))
      .set("dev_infiniband", uverbs(9))
      .set("proc_limits", "Limit                     Soft Limit           Hard Limit           Units\n"
                          "Max locked memory         unlimited            unlimited            bytes\n")
      .set("proc_status", "Name:\tpython3\nCapEff:\t00000000a80465fb\n")  // the ctk #2037 uid-0 mask
      .set("lsmod", fixture_from("lsmod/gpud39-peermem-lsmod-yaml.txt", "nvidia_peermem"))
      .absent("memory_peers")
      .set("nvidia_driver", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.161.08  Release Build")
      .set("dev_gdrdrv", "/dev/gdrdrv")
      .set("ibv_devinfo", ibv_devinfo(h100_nics()))
      .set("nvidia_smi_list", fixture_from("nvidia-smi/L-h100-8gpu-rhel-ai-vm-plus-topo-matrix.txt", "GPU 0:")
                                  .substr(0, fixture_from("nvidia-smi/L-h100-8gpu-rhel-ai-vm-plus-topo-matrix.txt",
                                                          "GPU 0:").find("\n\n")))
      .set("nvidia_smi_topo", topo_table(8, h100_nics(), 8))
      .set("nvidia_smi_nvlink", fixture("nvidia-smi-nvlink/h100-gpu0-status-18links-and-capabilities.txt"))
      .set("ucx_info_v", fixture_from("ucx_info/ucx-1.16-version-source-build.txt", "# Library")
                             .replace(fixture_from("ucx_info/ucx-1.16-version-source-build.txt", "# Library").find("1.16.0"), 6, "1.19.0"))
      .set("ucx_info_d", ucx_ib({"mlx5_0", "mlx5_1"}, "host (access,reg,cache), cuda (reg,cache)"))
      .set("transport_env",
           "UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1,mlx5_8:1,mlx5_9:1\n");
  return p;
}

inline const report::Finding& find(const std::vector<report::Finding>& fs, const std::string& name) {
  for (const auto& f : fs)
    if (f.name == name) return f;
  FAIL("no finding named " << name);
  static report::Finding none;
  return none;
}

inline bool has(const std::vector<report::Finding>& fs, const std::string& name) {
  for (const auto& f : fs)
    if (f.name == name) return true;
  return false;
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The node rules on a probe's facts, as check/ calls them.
inline std::vector<report::Finding> judge(const Probe& p, NodeContext ctx = {}) {
  return judge_node(p.facts(), ctx);
}

}  // namespace icheck::rules::test
