#include "probe/node_probe.hpp"

#include "dynamo/transport_vars.hpp"
#include "outside/mask.hpp"
#include "probe/fabric/fabric_parsers.hpp"
#include "probe/fabric/link_parsers.hpp"
#include "probe/gpudirect/kconfig_parsers.hpp"
#include "probe/gpudirect/vm_parsers.hpp"
#include "probe/parsers.hpp"
#include "probe/platform/platform_parsers.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <charconv>

namespace icheck::probe {
namespace {

bool ran_ok(const Tool* t) { return t != nullptr && t->succeeded(); }
bool has_output(const Tool* t) { return t != nullptr && t->found && !text::trim(t->output).empty(); }

std::string first_line(std::string_view s) {
  for (auto l : text::lines(s))
    if (auto t = text::trim(l); !t.empty()) return std::string(t);
  return {};
}

void read_fabric(NodeFacts& f) {
  if (const Tool* t = f.tool("sysfs_ib")) {
    f.sysfs_infiniband = t->found;
    f.sysfs_devices = parse_sysfs_ib(t->output);
  }
  if (const Tool* t = f.tool("ibdev2netdev"); has_output(t)) {
    // Corroboration only: fills netdevs sysfs did not show.
    for (const auto& p : parse_ibdev2netdev(t->output))
      for (auto& d : f.sysfs_devices)
        for (auto& port : d.ports)
          if (d.name == p.device && port.port == p.port && port.netdev.empty()) {
            port.netdev = p.netdev;
            port.netdev_up = p.netdev_up;
          }
  }
  if (const Tool* t = f.tool("ibstat"); has_output(t)) {
    f.ibstat = parse_ibstat(t->output);
    if (f.ibstat.error.empty() && !ran_ok(t)) f.ibstat.error = first_line(t->output);
  }
  if (const Tool* t = f.tool("ibv_devinfo"); has_output(t)) f.verbs = parse_ibv_devinfo(t->output);
  if (const Tool* t = f.tool("ibv_devices"); has_output(t)) f.ibv_devices_count = parse_ibv_devices_count(t->output);
}

void read_access(NodeFacts& f) {
  if (const Tool* t = f.tool("dev_infiniband")) {
    f.dev_infiniband_present = t->found;
    f.dev_infiniband = parse_dev_listing(t->output);
  }
  if (const Tool* t = f.tool("proc_limits"); t && t->found) f.memlock = parse_proc_limits(t->output);
  if (const Tool* t = f.tool("ulimit_l"); ran_ok(t)) f.memlock.ulimit_l = parse_ulimit_l(t->output);
  if (const Tool* t = f.tool("proc_status"); t && t->found) {
    f.cap_eff = parse_cap_eff(t->output);
    if (f.cap_eff) f.cap_ipc_lock = has_cap_ipc_lock(*f.cap_eff);
  }
}

void note_module(NodeFacts& f, std::string_view name) {
  if (name == "nvidia_peermem") f.peer_memory.nvidia_peermem = true;
  if (name == "nv_peer_mem") f.peer_memory.nv_peer_mem = true;
  if (name == "gdrdrv") f.gdrcopy.module = true;
}

void read_gpudirect(NodeFacts& f) {
  if (const Tool* t = f.tool("memory_peers"); t && t->found) f.peer_memory.nv_mem_version = first_line(t->output);
  if (const Tool* t = f.tool("sys_module"))
    for (auto line : text::lines(t->output))
      if (auto w = text::words(line); !w.empty()) note_module(f, w[0]);
  if (const Tool* t = f.tool("proc_modules"); t && t->found) f.modules = parse_proc_modules(t->output);
  if (const Tool* t = f.tool("lsmod"); f.modules.empty() && has_output(t)) f.modules = parse_lsmod(t->output);
  for (const auto& m : f.modules) note_module(f, m.name);
  if (const Tool* t = f.tool("nvidia_driver"); t && t->found) f.nvidia_driver = parse_nvidia_driver_version(t->output);
  if (const Tool* t = f.tool("dev_gdrdrv"))
    f.gdrcopy.dev_gdrdrv = t->found && !t->truncated;
  if (const Tool* t = f.tool("proc_devices"); t && t->found)
    f.gdrcopy.proc_devices_major = parse_proc_devices_major(t->output, "gdrdrv");
}

// The first nvidia-smi failure (in list, topo, nvlink order) explains all three.
void note_smi_error(NodeFacts& f, const Tool& t) {
  if (f.nvidia_smi_error.kind != NvidiaSmiErrorKind::none || ran_ok(&t)) return;
  if (!t.found) f.nvidia_smi_error = {NvidiaSmiErrorKind::not_found, "nvidia-smi not in PATH"};
  else if (t.timed_out) f.nvidia_smi_error = {NvidiaSmiErrorKind::other, "timed out"};
  else f.nvidia_smi_error = classify_nvidia_smi_error(t.output, t.exit_code);
}

void read_gpus(NodeFacts& f) {
  if (const Tool* t = f.tool("nvidia_smi_list")) {
    if (ran_ok(t)) f.gpus = parse_nvidia_smi_list(t->output);
    note_smi_error(f, *t);
  }
  if (const Tool* t = f.tool("nvidia_smi_topo")) {
    if (ran_ok(t)) f.topo = parse_nvidia_smi_topo(t->output);
    note_smi_error(f, *t);
  }
  if (const Tool* t = f.tool("nvidia_smi_nvlink")) {
    if (ran_ok(t)) f.nvlink = parse_nvidia_smi_nvlink(t->output);
    note_smi_error(f, *t);
  }
}

// ucx_info first; without it, what the image's libucp told python3 (same formats, same facts).
void read_ucx_lib(NodeFacts& f) {
  const Tool* t = f.tool("ucx_lib");
  if (t == nullptr)
    return;
  f.ucx_lib = parse_ucx_lib(t->output, t->found, t->exit_code.value_or(-1), t->timed_out);
  if (f.ucx_devices || !f.ucx_lib.answered())
    return;
  f.ucx_version = parse_ucx_version(f.ucx_lib.version_text);
  f.ucx_version->with_cuda = f.ucx_lib.has_module("cuda");
  f.ucx_version->with_gdrcopy = f.ucx_lib.has_module("cuda_gdrcopy") || f.ucx_lib.has_module("gdr_copy");
  f.ucx_devices = parse_ucx_devices(f.ucx_lib.devices_text);
  f.ucx_source = f.ucx_lib.where();
}

void read_ucx(NodeFacts& f) {
  if (const Tool* t = f.tool("ucx_info_v"); ran_ok(t)) f.ucx_version = parse_ucx_version(t->output);
  if (const Tool* t = f.tool("ucx_info_d"); ran_ok(t)) {
    f.ucx_devices = parse_ucx_devices(t->output);
    f.ucx_source = "ucx_info";
  }
  read_ucx_lib(f);
  if (const Tool* t = f.tool("ibv_caps"); t && t->found && !t->truncated)
    f.srq = parse_ibv_caps(t->output);
}

void add_env(NodeFacts& f, std::string_view name, std::string_view value) {
  if (dynamo::is_node_probe_var(name))
    f.transport_env[std::string(name)] = outside::shown_value(name, value);
}

// "BYTES NAME=VALUE\n" records, as the probe prints them (node_script.cpp): VALUE is BYTES
// long and may hold newlines. Reading stops at the first record not in that form.
void read_counted_env(std::string_view text, NodeFacts& f) {
  while (!text.empty()) {
    const auto space = text.find(' ');
    const auto eq = text.find('=');
    if (space == std::string_view::npos || eq == std::string_view::npos || eq < space) return;
    std::size_t bytes = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + space, bytes);
    if (ec != std::errc() || end != text.data() + space || bytes > text.size() - eq - 1) return;
    add_env(f, text.substr(space + 1, eq - space - 1), text.substr(eq + 1, bytes));
    text.remove_prefix(std::min(text.size(), eq + 1 + bytes + 1));
  }
}

// Counted records, or plain NAME=VALUE lines (env's own format, as captured by hand): a
// variable name never starts with a digit, so the first byte tells them apart.
void read_env(NodeFacts& f) {
  const Tool* t = f.tool("transport_env");
  if (t == nullptr) return;
  const std::string_view output = t->output;
  if (!output.empty() && output.front() >= '0' && output.front() <= '9') {
    return read_counted_env(output, f);
  }
  for (auto line : text::lines(output)) {
    const auto eq = line.find('=');
    if (eq != std::string_view::npos) add_env(f, line.substr(0, eq), line.substr(eq + 1));
  }
}

// The stack sections into typed facts, once: the rows' fact map is built from these only.
void read_stack(NodeFacts& f) {
  if (const Tool* t = f.tool("stack_versions"); t && t->found && !t->truncated)
    f.stack = parse_stack_versions(t->output);
  if (const Tool* t = f.tool("stack_fi_info"); t && t->succeeded())
    read_fi_info_version(t->output, f.stack);
  if (const Tool* t = f.tool("stack_env"); t && t->found && !t->truncated && t->exit_code == 0)
    f.whole_env = parse_whole_env(t->output);
  if (const Tool* t = f.tool("proc_modules"); t && t->found)
    f.modules_read = true;
}

}  // namespace

bool timed_out_status(int rc) { return rc == 124 || rc == 137 || rc == 143; }

Tool tool_from_section(const Section& section) {
  Tool t;
  t.found = !section.absent;
  t.exit_code = section.rc;
  t.timed_out = section.rc && timed_out_status(*section.rc);
  t.truncated = !section.complete;
  t.output = section.body;
  return t;
}

NodeFacts parse_node_probe(std::string_view raw) { return parse_node_probe(split_sections(raw)); }

NodeFacts parse_node_probe(const ProbeOutput& out) {
  NodeFacts f;
  for (const auto& s : out.sections) f.tools[s.name] = tool_from_section(s);
  f.script_complete = out.done;
  if (const Tool* t = f.tool("hostname")) f.hostname = first_line(t->output);
  if (const Tool* t = f.tool("kernel")) f.kernel = first_line(t->output);
  read_fabric(f);
  read_access(f);
  read_pod_fabric(f);
  read_link(f);
  read_vm(f);
  read_kernel_config(f);
  read_gpudirect(f);
  read_gpus(f);
  read_ucx(f);
  read_env(f);
  read_stack(f);
  read_platform(f);
  return f;
}

}  // namespace icheck::probe
