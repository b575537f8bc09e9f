// Probe figures: parser throughput on the largest fixtures and the node script's runtime on
// this machine under each available shell. Prints numbers; asserts nothing.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"
#include "probe/nixl/nixl_script.hpp"
#include "probe/parsers.hpp"
#include "run_shell.hpp"

using namespace icheck::probe;
using clock_type = std::chrono::steady_clock;

namespace {

std::string read(const std::string& rel) {
  std::ifstream in(std::string(ICHECK_TEST_DATA) + "/fixtures/" + rel, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::size_t sink = 0;

void throughput(const char* label, const std::string& text, const std::function<std::size_t(const std::string&)>& parse) {
  int iterations = 0;
  auto start = clock_type::now();
  std::chrono::duration<double> elapsed{};
  do {
    sink += parse(text);
    ++iterations;
    elapsed = clock_type::now() - start;
  } while (elapsed.count() < 0.3);
  double mb = static_cast<double>(text.size()) * iterations / 1e6;
  std::printf("%-28s %8zu B  %9.1f MB/s  %8.1f us/parse\n", label, text.size(), mb / elapsed.count(),
              elapsed.count() * 1e6 / iterations);
}

// label: "node" (the node script) or "node+nixl" (what nixl and all run in each pod).
void script_runtime(const std::string& shell, const char* label, const std::string& script) {
  if (!icheck::test::shell_installed(shell)) return;
  constexpr int runs = 20;
  double best = 1e9, total = 0;
  std::size_t bytes = 0;
  for (int i = 0; i < runs; ++i) {
    auto start = clock_type::now();
    auto out = icheck::test::run_shell(shell, script);  // includes writing the script file
    double ms = std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
    best = std::min(best, ms);
    total += ms;
    bytes = out.size();
    sink += parse_node_probe(out).tools.size();
  }
  std::printf("script %-9s %-11s best %6.1f ms  mean %6.1f ms  (%zu B output, tool-less machine)\n", label,
              shell.c_str(), best, total / runs, bytes);
}

}  // namespace

int main() {
  auto topo = read("nvidia-smi-topo/dgx-a100-8gpu-nv12-10nic-numa8.txt");
  auto ibstat = read("ibstat/h100-ib-cx7-400g-eth-ports-disabled.txt");
  auto sysfs = read("sysfs-infiniband/h100-sys-class-infiniband-gpud.txt");
  auto ucx = read("ucx_info/ucx-older-format-d-tcp-devices-ucx4388.txt") +
             read("ucx_info/ucx-d-excerpt-cuda-cpy-dmabuf-cuda-ipc-vllm26382.txt");
  auto nvlink = read("nvidia-smi-nvlink/a100-8gpu-status-gpud.txt");
  auto devinfo = read("ibv_devinfo/cx6-hdr-vv-port-active-and-port-down-ucx9908.txt");
  throughput("nvidia-smi topo -m (DGX)", topo, [](const std::string& s) { return parse_nvidia_smi_topo(s).rows.size(); });
  throughput("ibstat (12 CAs)", ibstat, [](const std::string& s) { return parse_ibstat(s).devices.size(); });
  throughput("sysfs (9 devices)", sysfs, [](const std::string& s) { return parse_sysfs_ib(s).size(); });
  throughput("ucx_info -d", ucx, [](const std::string& s) { return parse_ucx_devices(s).transports.size(); });
  throughput("nvidia-smi nvlink -s (8 GPUs)", nvlink, [](const std::string& s) { return parse_nvidia_smi_nvlink(s).gpus.size(); });
  throughput("ibv_devinfo -vv", devinfo, [](const std::string& s) { return parse_ibv_devinfo(s).devices.size(); });

  const std::string node(node_probe_script());
  const std::string with_nixl = insert_before_done(node, nixl_probe_script());
  for (std::string shell : {"dash", "busybox sh", "bash"}) {
    script_runtime(shell, "node", node);
    script_runtime(shell, "node+nixl", with_nixl);
  }
  return sink == 0 ? 1 : 0;
}
