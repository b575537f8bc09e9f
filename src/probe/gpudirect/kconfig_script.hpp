#pragma once
// The kernel-config half of the node probe: a POSIX sh fragment placed before the node script's
// "done" marker (it uses the node script's begin/end/bounded/show_file). Section:
//   kernel_config  "source PATH" (/boot/config-RELEASE, else /proc/config.gz), the config's lines
//                  of the options in kernel_config_options() only, "read RC" (the decompressor's
//                  status; "read none" where no zcat, gzip or python3 could decompress it), and
//                  "memory_peers present|absent|unread" (/sys/kernel/mm/memory_peers)

#include <string_view>

namespace icheck::probe {

std::string_view kernel_config_fragment();

}  // namespace icheck::probe
