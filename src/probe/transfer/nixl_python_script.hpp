#pragma once
// The transfer test through the worker image's own NIXL Python API (nixl._api): one Python
// script, run as `python3 -c SCRIPT target|initiator --ip DECODE_IP --port P --backend B
// --seed S --timeout T --gpu G --max-mib M` in each worker container. Decode is the target,
// prefill the initiator; a TCP socket between the pods carries the agents' metadata and the
// steps (no etcd, no NIXL listener). The initiator WRITEs a pattern unique to the seed and the
// block, times repeated WRITEs, the target checks what arrived, the initiator READs it back and
// checks it. Memory: up to M MiB and 1/8 of the GPU's free memory, from the CUDA runtime
// (ctypes), cupy or torch, the first that starts; host memory (64 MiB) only when none can.
// Stdlib only. Output lines for parse_nixl_python start with "icheck-nixl: ".

#include <string>
#include <string_view>

namespace icheck::probe {

// The script as sent: comment lines and blank lines dropped (it travels in every argv).
const std::string& nixl_python_script();

// Drops full-line comments and blank lines of a Python source (no other change: indentation
// and strings stay as they are).
std::string compact_python(std::string_view source);

constexpr int kNixlPythonPort = 13340;
constexpr int kNixlPythonMaxMib = 256;

}  // namespace icheck::probe
