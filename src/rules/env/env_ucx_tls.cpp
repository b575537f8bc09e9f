#include "rules/env/env_ucx_tls.hpp"

#include <sstream>
#include <vector>

namespace icheck::rules::detail {

namespace {

std::vector<std::string> tokens(std::string_view list) {
  std::vector<std::string> out;
  std::istringstream in{std::string(list)};
  for (std::string item; std::getline(in, item, ',');) {
    const auto first = item.find_first_not_of(' ');
    if (first != std::string::npos) {
      out.push_back(item.substr(first, item.find_last_not_of(' ') - first + 1));
    }
  }
  return out;
}

bool is_rdma(const std::string& tl) {
  return tl.starts_with("rc") || tl.starts_with("dc") || tl.starts_with("ud") || tl == "ib" ||
         tl == "srd" || tl == "all";
}

bool is_active_message(const std::string& tl) {
  return is_rdma(tl) || tl == "tcp" || tl == "sm" || tl == "shm" || tl == "posix" ||
         tl == "sysv";
}

}  // namespace

UcxTls parse_ucx_tls(std::string_view value) {
  UcxTls out;
  out.negated = value.starts_with("^");
  if (out.negated) {
    value.remove_prefix(1);
  }
  bool listed_rdma = false;
  bool listed_am = false;
  bool listed_cuda_ipc = false;
  bool listed_ib_or_all = false;
  bool rc = false, dc = false, ud = false;
  for (const auto& tl : tokens(value)) {
    listed_rdma = listed_rdma || is_rdma(tl);
    listed_am = listed_am || is_active_message(tl);
    listed_cuda_ipc = listed_cuda_ipc || tl == "cuda_ipc" || tl == "all";
    listed_ib_or_all = listed_ib_or_all || tl == "ib" || tl == "all";
    rc = rc || tl.starts_with("rc");
    dc = dc || tl.starts_with("dc");
    ud = ud || tl.starts_with("ud");
  }
  if (out.negated) {
    // An exclusion list keeps every transport it does not name: RDMA goes with the whole
    // "ib" alias (or "all"), or with rc, dc and ud all named; ^ud alone leaves rc and dc.
    out.rdma = !(listed_ib_or_all || (rc && dc && ud));
    out.active_message = true;  // tcp and sm stay unless excluded by name too
    out.cuda_ipc_off = listed_cuda_ipc;
  } else {
    out.rdma = listed_rdma;
    out.active_message = listed_am;
    out.cuda_ipc_off = !listed_cuda_ipc;
  }
  return out;
}

}  // namespace icheck::rules::detail
