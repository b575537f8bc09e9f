#include "probe/fabric/ib_common.hpp"
#include "probe/parsers.hpp"
#include "util/text.hpp"

namespace icheck::probe {
namespace {

IbDevice& device_named(std::vector<IbDevice>& devices, std::string_view name) {
  for (auto& d : devices)
    if (d.name == name) return d;
  devices.push_back(named_device(std::string(name)));
  return devices.back();
}

IbPort& port_numbered(IbDevice& dev, int number) {
  for (auto& p : dev.ports)
    if (p.port == number) return p;
  dev.ports.push_back(new_port(dev.name, number));
  return dev.ports.back();
}

std::string first_line(std::string_view content) {
  auto all = text::lines(content);
  return all.empty() ? std::string() : std::string(text::trim(all.front()));
}

void set_port_file(IbPort& port, std::string_view file, std::string_view content) {
  auto value = first_line(content);
  if (file == "state") {
    set_state(port, value);
  } else if (file == "phys_state") {
    set_phys_state(port, value);
  } else if (file == "rate") {
    set_rate(port, value);
  } else if (file == "link_layer") {
    set_link_layer(port, value);
  } else if (file == "lid") {
    if (auto v = text::to_hex(value)) port.base_lid = static_cast<int>(*v);
  } else if (file == "sm_lid") {
    if (auto v = text::to_hex(value)) port.sm_lid = static_cast<int>(*v);
  }
}

void set_device_file(IbDevice& dev, std::string_view rel, std::string_view content) {
  auto value = first_line(content);
  if (rel == "hca_type") dev.ca_type = value;
  else if (rel == "fw_ver") dev.fw = value;
  else if (rel == "board_id") dev.board_id = value;
  else if (rel == "node_guid") dev.node_guid = value;
  else if (rel == "node_type") dev.node_type = value;
  else if (rel == "device") {
    // The link target, e.g. ../../../0000:1a:00.0; its last component is the PCI address.
    auto slash = value.rfind('/');
    dev.pci_address = slash == std::string::npos ? value : value.substr(slash + 1);
  } else if (rel == "device/numa_node") {
    if (auto v = text::to_int(value); v && *v >= 0) dev.numa_node = static_cast<int>(*v);
  } else if (rel == "device/net") {
    for (auto line : text::lines(content))
      for (auto w : text::words(line)) dev.netdevs.emplace_back(w);
  }
}

// device/net/<if>/operstate: "up" or "down"; kept on the port that owns the netdev.
void set_operstate(IbDevice& dev, std::string_view ifname, std::string_view content) {
  auto state = first_line(content);
  for (auto& p : dev.ports)
    if (p.netdev == ifname) p.netdev_up = state == "up";
}

void apply(std::vector<IbDevice>& devices, std::string_view path, std::string_view content) {
  auto slash = path.find('/');
  if (slash == std::string_view::npos) return;
  auto& dev = device_named(devices, path.substr(0, slash));
  auto rel = path.substr(slash + 1);
  auto parts = text::split(rel, '/');
  if (parts.size() == 3 && parts[0] == "ports") {
    if (auto n = text::to_int(parts[1])) set_port_file(port_numbered(dev, static_cast<int>(*n)), parts[2], content);
  } else if (parts.size() == 4 && parts[0] == "ports" && parts[2] == "pkeys" && parts[3] == "0") {
    auto n = text::to_int(parts[1]);
    auto key = text::to_hex(first_line(content));
    if (n && key && *key <= 0xffff)
      port_numbered(dev, static_cast<int>(*n)).pkey0 = static_cast<unsigned>(*key);
  } else if (parts.size() == 4 && parts[0] == "device" && parts[1] == "net" &&
             parts[3] == "operstate") {
    set_operstate(dev, parts[2], content);
  } else {
    set_device_file(dev, rel, content);
  }
}

// One netdev and one port: that is the port's netdev (multi-port needs dev_port; not read).
void attach_netdevs(std::vector<IbDevice>& devices) {
  for (auto& d : devices)
    if (d.netdevs.size() == 1 && d.ports.size() == 1 && d.ports[0].netdev.empty())
      d.ports[0].netdev = d.netdevs[0];
}

}  // namespace

std::vector<IbDevice> parse_sysfs_ib(std::string_view out) {
  // Collect the blocks first: operstate is applied after netdevs are attached to ports.
  std::vector<std::pair<std::string_view, std::string>> blocks;
  for (auto line : text::lines(out)) {
    if (line.starts_with("==> ") && line.ends_with(" <==")) {
      blocks.emplace_back(text::trim(line.substr(4, line.size() - 8)), std::string());
      continue;
    }
    if (!blocks.empty()) blocks.back().second.append(line).push_back('\n');
  }
  std::vector<IbDevice> devices;
  for (const auto& [path, content] : blocks)
    if (!path.ends_with("/operstate")) apply(devices, path, content);
  attach_netdevs(devices);
  for (const auto& [path, content] : blocks)
    if (path.ends_with("/operstate")) apply(devices, path, content);
  return devices;
}

}  // namespace icheck::probe
