#pragma once
// The ucx layer's own node-probe fragment, placed before the node script's "done" marker (it
// uses the node script's begin/end/bounded):
//   ibv_caps   ibv_devinfo -v's "hca_id:" and "max_srq:" lines, then "rc=N" (its exit status);
//              rc=absent without ibv_devinfo. Parsed by probe/ucx/srq_facts.hpp.

#include <string_view>

namespace icheck::probe {

std::string_view ucx_caps_fragment();

}  // namespace icheck::probe
