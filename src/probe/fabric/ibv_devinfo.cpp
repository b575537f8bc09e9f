#include "probe/fabric/ib_common.hpp"
#include "probe/parsers.hpp"
#include "util/text.hpp"

namespace icheck::probe {
namespace {

// The most specific libibverbs complaint wins: it names why no device could be used.
void note_error(VerbsInfo& info, VerbsError kind, std::string_view line) {
  auto rank = [](VerbsError e) {
    switch (e) {
      case VerbsError::abi_mismatch: return 5;
      case VerbsError::no_provider: return 4;
      case VerbsError::no_config_dir: return 3;
      case VerbsError::open_failed: return 2;
      case VerbsError::no_devices: return 1;
      default: return 0;
    }
  };
  if (rank(kind) > rank(info.error)) {
    info.error = kind;
    info.error_text = line;
  }
}

bool scan_error(VerbsInfo& info, std::string_view line) {
  if (text::contains(line, "no userspace device-specific driver found"))
    note_error(info, VerbsError::no_provider, line);
  else if (text::contains(line, "couldn't open config directory"))
    note_error(info, VerbsError::no_config_dir, line);
  else if (text::contains(line, "does not support the kernel ABI"))
    note_error(info, VerbsError::abi_mismatch, line);
  else if (line == "No IB devices found" || (line.ends_with("HCAs found:") && line.starts_with("0 ")))
    note_error(info, VerbsError::no_devices, line);
  else if (line.starts_with("Failed to open device"))
    note_error(info, VerbsError::open_failed, line);
  else
    return false;
  return true;
}

void set_port_field(IbPort& port, std::string_view key, std::string_view value) {
  if (key == "state") {
    set_state(port, value);
  } else if (key == "phys_state") {
    set_phys_state(port, value);
  } else if (key == "link_layer") {
    set_link_layer(port, value);
  } else if (key == "port_lid") {
    if (auto v = text::to_int(value)) port.base_lid = static_cast<int>(*v);
  } else if (key == "sm_lid") {
    if (auto v = text::to_int(value)) port.sm_lid = static_cast<int>(*v);
  } else if (key == "active_speed") {
    port.rate_text = value;  // per-lane speed ("50.0 Gbps (64)"), not the port rate
  }
}

}  // namespace

VerbsInfo parse_ibv_devinfo(std::string_view out) {
  VerbsInfo info;
  IbDevice* dev = nullptr;
  IbPort* port = nullptr;
  int failed = 0;
  std::optional<int> listed;  // `ibv_devinfo -l`: "<N> HCAs found:"
  for (auto raw : text::lines(out)) {
    auto line = text::trim(raw);
    if (line.ends_with(" HCAs found:"))
      if (auto n = text::to_int(line.substr(0, line.find(' ')))) listed = static_cast<int>(*n);
    if (scan_error(info, line)) {
      if (line.starts_with("Failed to open device")) ++failed;
      continue;
    }
    auto kv = text::key_value(line);
    if (!kv) continue;
    auto [key, value] = *kv;
    if (key == "hca_id") {
      info.devices.push_back(named_device(std::string(value)));
      dev = &info.devices.back();
      port = nullptr;
    } else if (key == "port" && dev != nullptr) {
      auto n = text::to_int(value);
      dev->ports.push_back(new_port(dev->name, n ? static_cast<int>(*n) : 0));
      port = &dev->ports.back();
    } else if (port != nullptr) {
      set_port_field(*port, key, value);
    } else if (dev != nullptr) {
      if (key == "fw_ver") dev->fw = value;
      else if (key == "node_guid") dev->node_guid = value;
      else if (key == "vendor_part_id") dev->ca_type = "MT" + std::string(value);
    }
  }
  info.device_count = static_cast<int>(info.devices.size());
  if (listed && *listed > *info.device_count) info.device_count = listed;
  info.failed_devices = failed;
  // Some devices opened: unopenable siblings are not why verbs fails as a whole.
  if (!info.devices.empty() && info.error == VerbsError::open_failed) info.error = VerbsError::none;
  if (info.devices.empty() && info.error == VerbsError::none && !text::trim(out).empty())
    info.device_count.reset();  // output we do not understand: no count claimed
  return info;
}

}  // namespace icheck::probe
