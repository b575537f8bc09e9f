#pragma once
// The nixl layer's fragment that tells whether each plugin can load, appended to the NIXL probe
// fragment (it uses its nx_* helpers and the directory it found first):
//   nixl_libs   "tool ldd" or "tool ld.so" (the dynamic loader's --list), "dir PATH", then per
//               plugin of that directory "@ FILE" and the loader's lines for libraries not found
//               and for libucp/libucs/libfabric (which copy resolved); rc=absent when the image
//               has neither tool. The loader only maps and lists: no plugin code runs.

#include <string_view>

namespace icheck::probe {

std::string_view nixl_libs_fragment();

}  // namespace icheck::probe
