#include "probe/fabric/ib_common.hpp"
#include "probe/parsers.hpp"
#include "util/text.hpp"

namespace icheck::probe {

std::optional<int> parse_ibv_devices_count(std::string_view out) {
  // "    device                 node GUID" / "    ------ ..." / one line per device.
  std::optional<int> count;
  for (auto raw : text::lines(out)) {
    auto w = text::words(raw);
    if (w.size() >= 1 && w[0] == "device") { count = 0; continue; }
    if (!count || w.empty() || w[0].starts_with("---")) continue;
    if (w.size() == 2 && text::to_hex(w[1])) ++*count;
  }
  return count;
}

}  // namespace icheck::probe
