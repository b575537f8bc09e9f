#pragma once
// The NIXL probe: a POSIX sh fragment (busybox ash, dash, bash) appended to the node probe
// script before its final "done" marker, so a pod still costs one `kubectl exec`. It defines
// its own helpers (nx_*) and prints sections in the grammar of sections.hpp, all named
// "nixl_*":
//   nixl_env       NIXL_PLUGIN_DIR=, LD_PRELOAD=, ARCH= (empty values printed too)
//   nixl_dirs      per plugin directory: "@ SOURCE PATH" then "real PATH" then one
//                  plugin file name per line (libplugin_*.so)
//   nixl_python    "file PATH" from `import nixl` (bounded); rc=absent without python3
//   nixl_versions  "==> FILE <==" blocks: /opt/dynamo/nixl-versions.txt as is, and the
//                  Name:/Version: lines of nixl, nixl_cu12, nixl_cu13 wheel METADATA
//   nixl_tools     "TOOL PATH" for nixlbench, nixl_test, nixl_example, ucx_perftest, ucx_info
//   nixl_bench_help  the asio/runtime_type lines of `nixlbench --help` (bounded);
//                  rc=absent without nixlbench
//   nixl_efa       EFA device names under /sys/class/infiniband (efa_*, rdmap*)
//   nixl_ucx_maps  "pid PID COMM" of the process mapping the most libucs/libucp, then
//                  its libucs*/libucp* map lines (read from /proc/PID/maps only)
//   nixl_engine_config  TRT-LLM's --extra-engine-args file of a running process
//   nixl_libs      whether the plugins of the first directory load (nixl_libs_script.hpp)

#include <string>
#include <string_view>

namespace icheck::probe {

std::string_view nixl_probe_script();

// The node script with the fragment placed before its final "done" marker (appended when the
// marker is missing), so "done" still means every section ran.
std::string insert_before_done(std::string_view script, std::string_view fragment);

}  // namespace icheck::probe
