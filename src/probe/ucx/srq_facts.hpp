#pragma once
// Whether each RDMA device can give UCX the shared receive queue its RC and DC transports need
// (UCX's rc_verbs creates an SRQ; an AMD Ionic NIC reporting max_srq 0 had no RC transport and
// NIXL could not move KV across nodes: sgl-project/sglang #30099). Read from `ibv_devinfo -v`.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::probe {

struct DeviceSrq {
  std::string device;  // hca_id
  long long max_srq = 0;
};

struct SrqFacts {
  bool read = false;               // ibv_devinfo -v ran to its end and named devices
  std::vector<DeviceSrq> devices;  // in its order; a device without a max_srq line is left out
  const DeviceSrq* find(std::string_view device) const;
};

// The ibv_caps section: ibv_devinfo -v's "hca_id:" and "max_srq:" lines, then "rc=N".
SrqFacts parse_ibv_caps(std::string_view body);

}  // namespace icheck::probe
