#include "probe/ucx/ucx_caps_script.hpp"

namespace icheck::probe {
namespace {

// RC and DC need a shared receive queue on the device: ibv_devinfo -v prints max_srq per device
// (0: none). One bounded run; only two kinds of lines are kept, so a device's long GID table
// costs nothing in the output.
constexpr std::string_view kUcxCaps = R"ICHECK_SH(
begin ibv_caps
if command -v ibv_devinfo >/dev/null 2>&1; then
  { bounded ibv_devinfo -v </dev/null 2>&1; printf 'rc=%s\n' "$?"; } | while IFS= read -r cap; do
    case $cap in hca_id:*|*max_srq:*|rc=*) printf '%s\n' "$cap" ;; esac
  done
  end ibv_caps 0
else
  end ibv_caps absent
fi
)ICHECK_SH";

}  // namespace

std::string_view ucx_caps_fragment() {
  return kUcxCaps;
}

}  // namespace icheck::probe
