#include "rules/env/env_ucx_tls.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

namespace icheck::rules::detail {

namespace {

// The names, blanks and UCX's ":aux" suffix dropped.
std::vector<std::string> tokens(std::string_view list) {
  std::vector<std::string> out;
  std::istringstream in{std::string(list)};
  for (std::string item; std::getline(in, item, ',');) {
    const auto first = item.find_first_not_of(' ');
    if (first == std::string::npos)
      continue;
    item = item.substr(first, item.find_last_not_of(' ') - first + 1);
    if (auto colon = item.find(':'); colon != std::string::npos)
      item.resize(colon);
    if (!item.empty())
      out.push_back(item);
  }
  return out;
}

struct Names {
  std::vector<std::string> list;
  bool any(std::initializer_list<std::string_view> names) const {
    return std::any_of(list.begin(), list.end(), [&](const std::string& t) {
      return t == "all" || std::find(names.begin(), names.end(), t) != names.end();
    });
  }
  bool starting(std::string_view prefix) const {
    return std::any_of(list.begin(), list.end(),
                       [&](const std::string& t) { return t == "all" || t.starts_with(prefix); });
  }
};

bool names_rdma(const Names& n) {
  return n.starting("rc") || n.starting("dc") || n.any({"ib", "srd"});
}

bool names_active_message(const Names& n) {
  return names_rdma(n) || n.starting("ud") || n.any({"tcp", "sm", "shm", "mm", "posix", "sysv"});
}

// An exclusion list drops RC only when it names both RC flavours (or their alias), DC when it
// names dc_mlx5 or its alias. srd (EFA only) is not counted as kept: on an mlx5 node it is not
// there.
bool excludes_rdma(const Names& n) {
  const bool rc =
      n.any({"rc", "ib"}) || (n.any({"rc_x", "rc_mlx5"}) && n.any({"rc_v", "rc_verbs"}));
  const bool dc = n.any({"dc", "dc_x", "dc_mlx5", "ib"});
  return rc && dc;
}

}  // namespace

UcxTls parse_ucx_tls(std::string_view value) {
  UcxTls out;
  out.negated = value.starts_with("^");
  if (out.negated)
    value.remove_prefix(1);
  const Names n{tokens(value)};
  const bool copy = n.any({"cuda_copy", "cuda"});
  const bool ipc = n.any({"cuda_ipc", "cuda"});
  if (out.negated) {
    out.rdma = !excludes_rdma(n);
    out.active_message = true;  // tcp and sm stay unless excluded by name too
    out.cuda_copy = !copy;
    out.cuda_ipc_off = ipc;
  } else {
    out.rdma = names_rdma(n);
    out.active_message = names_active_message(n);
    out.cuda_copy = copy;
    out.cuda_ipc_off = !ipc;
  }
  return out;
}

std::string without_cuda_copy(std::string_view shown) {
  return std::string(shown) +
         " leaves out cuda_copy: UCX then takes the KV cache's GPU memory for host memory and NIXL "
         "cannot register it (NVIDIA/TensorRT-LLM #18373), on one node as across nodes";
}

std::string without_cuda_ipc(std::string_view shown) {
  return std::string(shown) +
         " leaves out cuda_ipc while multi-node NVLink is meant to carry KV: UCX cannot use NVLink";
}

}  // namespace icheck::rules::detail
