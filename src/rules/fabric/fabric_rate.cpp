// fabric "adapter rate": a port is judged against the rate its own adapter model is built for
// (probe/fabric/adapters.hpp), so a uniform downgrade (every ConnectX-7 at HDR 200) is not hidden by
// "all ports Active" and one rate everywhere.
#include "probe/fabric/adapters.hpp"
#include "rules/fabric/fabric_pod.hpp"

namespace icheck::rules::node {
namespace {

using report::Layer;
using report::Status;

struct Rated {
  const probe::IbDevice* dev;
  const probe::IbPort* port;
};

const probe::IbDevice* owner(const NodeView& v, const probe::IbPort& p) {
  for (const auto& d : *v.devices)
    if (d.name == p.device)
      return &d;
  return nullptr;
}

// Slower lanes than the adapter's: judged by speed generation when sysfs names it (width is
// the board's choice), else by the number against the expected rate.
bool below(const probe::IbDevice& d, const probe::IbPort& p) {
  const auto* spec = probe::adapter_spec(d.ca_type);
  if (auto speed = probe::rate_speed(p.rate_text); speed && spec && spec->ib_speed)
    return *speed < *spec->ib_speed;
  return p.rate_gbps && p.expected_gbps && *p.rate_gbps < *p.expected_gbps;
}

std::string adapter_text(const probe::IbDevice& d) {
  const auto* spec = probe::adapter_spec(d.ca_type);
  return d.model + " (" + std::string(probe::to_string(*spec->ib_speed)) + " " +
         format_rate(probe::rate_4x_gbps(*spec->ib_speed)) + " Gb/s)";
}

std::string port_rate(const probe::IbPort& p) {
  return p.rate_text.empty() ? format_rate(*p.rate_gbps) + " Gb/s" : p.rate_text;
}

// The negotiated speed on the node, then the other end: the cable, transceiver or switch port
// agreed on a slower speed than the adapter supports.
std::string rate_next(const probe::IbPort& p) {
  return "on the node: ibstat " + p.device + " " + std::to_string(p.port) +
         " (Rate), then the switch port's speed (ibportstate / UFM), the cable and transceiver";
}

} // namespace

std::optional<report::Finding> adapter_rate(const NodeView& v,
                                            const std::vector<const probe::IbPort*>& active) {
  std::vector<Rated> rated, slow;
  for (const auto* p : active) {
    const auto* d = owner(v, *p);
    if (d == nullptr || !p->expected_gbps || p->rate_unreadable ||
        (!p->rate_gbps && p->rate_text.empty()))
      continue;
    rated.push_back({d, p});
    if (below(*d, *p))
      slow.push_back({d, p});
  }
  if (rated.empty())
    return std::nullopt;
  std::string n = std::to_string(rated.size());
  if (slow.empty())
    return finding(Layer::fabric, "adapter rate", Status::ok,
                   n + "/" + n + " InfiniBand ports at their adapter's speed: " +
                       adapter_text(*rated.front().dev));
  std::vector<std::string> ports;
  for (const auto& r : slow)
    ports.push_back(port_id(*r.port));
  const auto& first = slow.front();
  std::string what = port_rate(*first.port) + " on " + adapter_text(*first.dev) + " adapters";
  if (slow.size() == rated.size())
    return finding(
        Layer::fabric, "adapter rate", Status::warn,
        "uniform downgrade: all " + n + " Active InfiniBand ports run " + what +
            ", which 'all ports Active' hides; KV bandwidth is capped at the slower rate",
        rate_next(*first.port));
  return finding(Layer::fabric, "adapter rate", Status::warn,
                 std::to_string(slow.size()) + "/" + n +
                     " InfiniBand ports below their adapter's speed: " + port_range(ports) +
                     " at " + what,
                 rate_next(*first.port));
}

} // namespace icheck::rules::node
