#include "probe/fabric/ib_common.hpp"
#include "probe/parsers.hpp"
#include "util/text.hpp"

namespace icheck::probe {

std::vector<IbPort> parse_ibdev2netdev(std::string_view out) {
  std::vector<IbPort> ports;
  for (auto raw : text::lines(out)) {
    // mlx5_0 port 1 ==> ibp26s0 (Down)   [column -t spacing and trailing comments allowed]
    auto w = text::words(raw);
    if (w.size() < 5 || w[1] != "port" || w[3] != "==>") continue;
    auto n = text::to_int(w[2]);
    if (!n) continue;
    auto port = new_port(std::string(w[0]), static_cast<int>(*n));
    port.netdev = w[4];
    if (w.size() >= 6 && (w[5] == "(Up)" || w[5] == "(Down)")) port.netdev_up = w[5] == "(Up)";
    ports.push_back(std::move(port));
  }
  return ports;
}

}  // namespace icheck::probe
