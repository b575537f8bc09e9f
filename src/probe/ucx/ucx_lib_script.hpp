#pragma once
// The ucx layer's fragment that asks the image's own UCX library when the image has no ucx_info
// (Dynamo's runtime images carry UCX only inside the NIXL wheel). Placed before the node
// script's "done" marker; it uses the node script's begin/end/bounded:
//   ucx_lib   "not run: ..." when ucx_info is in the image (ucx_info is read instead); else the
//             output of a fresh, bounded python3 process (never the worker) that loads, through
//             ctypes, the libucp the serving process maps (else the NIXL wheel's copy, else a
//             system one) and prints what `ucx_info -v` and `-d` would: "source maps PID COMM" |
//             "source wheel DIR" | "source system DIR", "libucp PATH", then "==> version <==",
//             "==> devices <==" (ucx_info's own line formats), "==> modules <==" ("lib PATH" per
//             UCX library mapped, "dir PATH" of its modules, "loaded|present FILE" per module)
//             and "==> end <==". "skipped: WHY" / "error: WHY" when it could not; rc=absent
//             without python3. Parsed by probe/ucx/ucx_lib_facts.hpp.

#include <string>
#include <string_view>

namespace icheck::probe {

std::string_view ucx_lib_fragment();

// The Python script the fragment runs (as sent: comment lines dropped, no single quote).
const std::string& ucx_lib_python();

}  // namespace icheck::probe
