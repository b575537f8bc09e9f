#pragma once
// The nixl layer's fragment that asks the image's own NIXL, appended after the NIXL probe
// fragment (it uses its nx_* helpers):
//   nixl_agent  the output of a fresh, bounded python3 process (never the worker) that creates a
//               nixl._api agent with no backend, no progress or listener thread, and prints
//               "plugins NAME..." (what NIXL itself lists), then per KV network backend
//               NIXL lists (UCX, LIBFABRIC) "backend NAME created" or "backend NAME error
//               TEXT" (NIXL's own exception), "backend NAME not listed" for the others, and "end".
//               No memory is registered and nothing is transferred. "skipped: WHY" when
//               nixl._api cannot be imported or differs; "error: WHY" when no agent starts;
//               rc=absent without python3.

#include <string>
#include <string_view>

namespace icheck::probe {

std::string_view nixl_agent_fragment();

// The Python script the fragment runs (as sent: comment lines dropped, no single quote).
const std::string& nixl_agent_python();

}  // namespace icheck::probe
