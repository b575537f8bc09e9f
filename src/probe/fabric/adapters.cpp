#include "probe/fabric/adapters.hpp"

#include "util/text.hpp"

#include <array>

namespace icheck::probe {
namespace {

// CA types are "MT" + the PCI device id in decimal (Mellanox/mstflint kernel driver's PCI id
// list: CONNECTX6_PCI_ID 4123, CONNECTX7_PCI_ID 4129, BLUEFIELD3_PCI_ID 41692, ...). Lane speeds
// from NVIDIA's product briefs: ConnectX-3 FDR 56G, Connect-IB FDR, ConnectX-4/-5 EDR 100G,
// ConnectX-6 VPI HDR 200G, ConnectX-7 NDR 400G, ConnectX-8 SuperNIC XDR 800G, BlueField-3 NDR
// 400G. ConnectX-4 Lx, -6 Dx, -6 Lx are Ethernet-only; VFs and BlueField-1/-2 are left unrated
// (their IB speed depends on the board, not the ASIC). The reference notes list the same table.
constexpr std::array<AdapterSpec, 17> specs{{
    {"MT4099", "ConnectX-3", IbSpeed::fdr},
    {"MT4103", "ConnectX-3 Pro", IbSpeed::fdr},
    {"MT4113", "Connect-IB", IbSpeed::fdr},
    {"MT4115", "ConnectX-4", IbSpeed::edr},
    {"MT4116", "ConnectX-4 VF", std::nullopt},
    {"MT4117", "ConnectX-4 Lx", std::nullopt},
    {"MT4119", "ConnectX-5", IbSpeed::edr},
    {"MT4121", "ConnectX-5 Ex", IbSpeed::edr},
    {"MT4123", "ConnectX-6", IbSpeed::hdr},
    {"MT4124", "ConnectX-6 VF", std::nullopt},
    {"MT4125", "ConnectX-6 Dx", std::nullopt},
    {"MT4126", "ConnectX VF", std::nullopt},
    {"MT4127", "ConnectX-6 Lx", std::nullopt},
    {"MT4129", "ConnectX-7", IbSpeed::ndr},
    {"MT4131", "ConnectX-8", IbSpeed::xdr},
    {"MT41686", "BlueField-2", std::nullopt},
    {"MT41692", "BlueField-3", IbSpeed::ndr},
}};

// Each speed as sysfs names it and its 4X rate (SDR prints no name: "10 Gb/sec (4X)").
struct SpeedName {
  std::string_view name;
  IbSpeed speed;
  double rate_4x;
};
constexpr std::array<SpeedName, 9> speed_names{{
    {"SDR", IbSpeed::sdr, 10},
    {"DDR", IbSpeed::ddr, 20},
    {"QDR", IbSpeed::qdr, 40},
    {"FDR10", IbSpeed::fdr10, 40},
    {"FDR", IbSpeed::fdr, 56},
    {"EDR", IbSpeed::edr, 100},
    {"HDR", IbSpeed::hdr, 200},
    {"NDR", IbSpeed::ndr, 400},
    {"XDR", IbSpeed::xdr, 800},
}};

// "(4X NDR)" -> "4X NDR"; empty when the text has no parenthesis.
std::string_view inside_parens(std::string_view text) {
  auto open = text.find('(');
  auto close = text.find(')', open);
  if (open == std::string_view::npos || close == std::string_view::npos)
    return {};
  return text.substr(open + 1, close - open - 1);
}

} // namespace

const AdapterSpec* adapter_spec(std::string_view ca_type) {
  auto t = text::trim(ca_type);
  for (const auto& s : specs)
    if (s.ca_type == t)
      return &s;
  return nullptr;
}

std::string_view to_string(IbSpeed speed) {
  for (const auto& n : speed_names)
    if (n.speed == speed)
      return n.name;
  return "?";
}

double rate_4x_gbps(IbSpeed speed) {
  for (const auto& n : speed_names)
    if (n.speed == speed)
      return n.rate_4x;
  return 0;
}

std::optional<IbSpeed> rate_speed(std::string_view rate_text) {
  auto inner = inside_parens(rate_text);
  if (inner.empty())
    return std::nullopt;
  auto words = text::words(inner);
  if (words.size() == 1 && words[0].ends_with('X'))
    return IbSpeed::sdr; // "(4X)": SDR has no name
  if (words.size() < 2)
    return std::nullopt;
  for (const auto& n : speed_names)
    if (words[1] == n.name)
      return n.speed;
  return std::nullopt;
}

std::optional<int> rate_width(std::string_view rate_text) {
  auto words = text::words(inside_parens(rate_text));
  if (words.empty() || !words[0].ends_with('X'))
    return std::nullopt;
  auto n = text::to_int(words[0].substr(0, words[0].size() - 1));
  if (!n || *n <= 0)
    return std::nullopt;
  return static_cast<int>(*n);
}

std::optional<double> expected_rate_gbps(const IbDevice& dev, const IbPort& port) {
  if (port.link_layer != LinkLayer::infiniband)
    return std::nullopt;
  const auto* spec = adapter_spec(dev.ca_type);
  if (spec == nullptr || !spec->ib_speed)
    return std::nullopt;
  int width = rate_width(port.rate_text).value_or(4);
  return rate_4x_gbps(*spec->ib_speed) * width / 4;
}

} // namespace icheck::probe
