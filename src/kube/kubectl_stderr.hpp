#pragma once
// What kubectl wrote to stderr, reduced to what a user should read.

#include <string>
#include <string_view>
#include <vector>

namespace icheck::kube {

// True for a klog line: `E1130 19:01:10.339436   12950 memcache.go:265] ...`.
bool is_klog_line(std::string_view line);

// The non-blank lines of kubectl's stderr. klog lines (client-go's retries, repeated up to five
// times before kubectl's own message) are dropped when any other line remains; when only klog
// lines remain, each distinct message is kept once, without its header.
std::vector<std::string> kubectl_messages(std::string_view err);

}  // namespace icheck::kube
