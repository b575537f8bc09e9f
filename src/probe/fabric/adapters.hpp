#pragma once
// What each RDMA adapter model is rated for, so a port can be judged against its own adapter
// rather than against the slowest port found. Pure table lookups; no I/O.

#include "probe/facts.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace icheck::probe {

// InfiniBand lane speed generations in the order the kernel's sysfs rate names them
// ("400 Gb/sec (4X NDR)"; SDR prints no name: "10 Gb/sec (4X)").
enum class IbSpeed { sdr, ddr, qdr, fdr10, fdr, edr, hdr, ndr, xdr };

struct AdapterSpec {
  std::string_view ca_type;        // sysfs hca_type / ibstat "CA type": "MT4129"
  std::string_view model;          // "ConnectX-7"
  std::optional<IbSpeed> ib_speed; // fastest IB lane speed; nullopt: Ethernet-only or unknown (VFs)
};

const AdapterSpec* adapter_spec(std::string_view ca_type); // nullptr: not in the table
std::string_view to_string(IbSpeed speed);                 // "NDR"
double rate_4x_gbps(IbSpeed speed);                        // NDR -> 400, FDR -> 56

// The speed generation and width sysfs prints in a rate ("200 Gb/sec (2X NDR)" -> NDR, 2);
// an ibstat "Rate: 400" carries neither.
std::optional<IbSpeed> rate_speed(std::string_view rate_text);
std::optional<int> rate_width(std::string_view rate_text);

// The rate an InfiniBand port of this adapter should run at: the adapter's lane speed times the
// width the port trained at (4X when not printed). Width is not judged: a 2-port NDR200 board
// runs 2X by design, so 2X NDR reads as 200 expected, never as a 400 port at half speed.
std::optional<double> expected_rate_gbps(const IbDevice& dev, const IbPort& port);

} // namespace icheck::probe
