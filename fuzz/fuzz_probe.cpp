// The probes' sectioned output (every tool parser behind it runs on its section), and each
// tool parser on the whole input as well, so a seed from one tool's fixture reaches it directly.
#include "fuzz_input.hpp"
#include "probe/metrics/metrics_reads.hpp"
#include "probe/nixl/nixl_facts.hpp"
#include "probe/node_probe.hpp"
#include "probe/parsers.hpp"
#include "probe/sections.hpp"
#include "rules/nixl/kv_metrics.hpp"

namespace {

void each_tool_parser(std::string_view in) {
  using namespace icheck::probe;
  (void)parse_port_state(in);
  (void)parse_phys_state(in);
  (void)parse_link_layer(in);
  (void)parse_rate_gbps(in);
  (void)parse_ibstat(in);
  (void)parse_sysfs_ib(in);
  (void)parse_ibv_devinfo(in);
  (void)parse_ibv_devices_count(in);
  (void)parse_ibdev2netdev(in);
  (void)parse_dev_listing(in);
  (void)parse_proc_limits(in);
  (void)parse_ulimit_l(in);
  (void)parse_cap_eff(in);
  (void)parse_proc_modules(in);
  (void)parse_lsmod(in);
  (void)parse_nvidia_driver_version(in);
  (void)parse_proc_devices_major(in, "gdrdrv");
  (void)parse_nvidia_smi_list(in);
  (void)parse_nvidia_smi_topo(in);
  (void)parse_nvidia_smi_nvlink(in);
  (void)parse_ucx_version(in);
  (void)parse_ucx_devices(in);
  (void)parse_prometheus_text(in);
}

// The KV-metrics reader's output (a page from the pod inside it) and its judgement.
void kv_metrics(std::string_view in) {
  using namespace icheck;
  const std::vector<probe::MetricsEndpoint> eps{
      {"dynamo", 9090, "/metrics", "DYN_SYSTEM_PORT=9090"},
      {"nixl-telemetry", 19090, "/metrics", "x"}};
  rules::KvMetricsInput judged;
  judged.role = dynamo::Role::decode;
  judged.endpoints = eps;
  judged.reads = probe::parse_metrics_reads(in, eps);
  judged.line_rate_gbps = 400;
  (void)rules::judge_kv_metrics(judged);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = icheck::fuzz::text(data, size);
  (void)icheck::probe::output_complete(input);
  (void)icheck::probe::parse_node_probe(input);
  (void)icheck::probe::parse_nixl_probe(input);
  each_tool_parser(input);
  kv_metrics(input);
  return 0;
}
