#include "probe/parsers.hpp"
#include "util/text.hpp"

namespace icheck::probe {
namespace {

// ucx_info prefixes lines with "#"; one 1.20 paste had none, so the prefix is optional.
std::string_view unhashed(std::string_view line, std::size_t* indent = nullptr) {
  line = text::trim(line);
  if (line.starts_with("#")) line.remove_prefix(1);
  std::size_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  if (indent != nullptr) *indent = n;
  return text::trim(line);
}

// "host (reg), cuda (access,alloc,reg,detect,dmabuf), cuda-managed (...)": names outside parens.
std::vector<std::string> memory_types(std::string_view value, bool& dmabuf) {
  std::vector<std::string> out;
  std::string name;
  int depth = 0;
  std::string inner;
  for (char c : value) {
    if (c == '(') ++depth;
    else if (c == ')') --depth;
    else if (depth > 0) inner += c;
    else if (c == ',') {
      if (auto t = text::trim(name); !t.empty()) out.emplace_back(t);
      name.clear();
    } else name += c;
  }
  if (auto t = text::trim(name); !t.empty()) out.emplace_back(t);
  dmabuf = dmabuf || text::contains(inner, "dmabuf");
  return out;
}

void on_transport(UcxDevices& d, std::string_view name, const std::string& md) {
  UcxTransport t;
  t.transport = name;
  t.memory_domain = md;
  d.transports.push_back(std::move(t));
}

void on_device(UcxDevices& d, std::string_view device, const std::string& transport, const std::string& md) {
  if (!d.transports.empty() && d.transports.back().device.empty() && d.transports.back().transport == transport) {
    d.transports.back().device = device;
    return;
  }
  // Older layout: several Device blocks under one Transport.
  on_transport(d, transport, md);
  d.transports.back().device = device;
}

// configure's --enable-mt (default off) on the configure line; without one, HPC-X's layout:
// ucx/mt/lib holds its thread-enabled build, ucx/lib the one without.
std::optional<bool> enable_mt(std::string_view configured, std::string_view library) {
  if (!configured.empty()) {
    bool on = false;
    for (auto word : text::split(configured, ' ')) {
      if (word == "--enable-mt" || word == "--enable-mt=yes")
        on = true;
      if (word == "--disable-mt" || word == "--enable-mt=no")
        on = false;
    }
    return on;
  }
  if (text::contains(library, "/hpcx/ucx/mt/"))
    return true;
  if (text::contains(library, "/hpcx/ucx/lib/"))
    return false;
  return std::nullopt;
}

}  // namespace

UcxVersion parse_ucx_version(std::string_view out) {
  UcxVersion v;
  for (auto raw : text::lines(out)) {
    auto line = unhashed(raw);
    auto kv = text::key_value(line);
    if (line.starts_with("Library version:")) v.version = kv->second;
    else if (line.starts_with("Library path:"))
      v.library_path = kv->second;
    // UCX before 1.14 (Debian 12's 1.13.1): "# Version 1.13.1"
    else if (line.starts_with("Version ") && v.version.empty())
      v.version = text::trim(line.substr(8));
    else if (line.starts_with("Git branch")) {
      auto at = line.find("revision ");
      if (at != std::string_view::npos) v.revision = text::trim(line.substr(at + 9));
    } else if (line.starts_with("Configured with:")) {
      v.configured_with = kv->second;
      v.with_cuda = text::contains(line, "--with-cuda") && !text::contains(line, "--with-cuda=no");
      v.with_gdrcopy = text::contains(line, "--with-gdrcopy") && !text::contains(line, "--with-gdrcopy=no");
    }
  }
  v.enable_mt = enable_mt(v.configured_with, v.library_path);
  return v;
}

UcxDevices parse_ucx_devices(std::string_view out) {
  UcxDevices d;
  std::string md;
  std::string transport;
  for (auto raw : text::lines(out)) {
    std::size_t indent = 0;
    auto line = unhashed(raw, &indent);
    if (line.starts_with("< no supported devices found >")) {
      if (!d.memory_domains.empty()) d.memory_domains.back().no_devices = true;
      continue;
    }
    if (line.starts_with("< failed to open memory domain")) {
      UcxMemoryDomain m;
      // The line may end right after the words (a cut output): no name then, never an exception.
      auto rest =
          text::trim(line.substr(std::string_view("< failed to open memory domain").size()));
      m.name = rest.substr(0, rest.find(' '));
      m.failed_to_open = true;
      d.memory_domains.push_back(std::move(m));
      continue;
    }
    auto kv = text::key_value(line);
    if (!kv) continue;
    auto [key, value] = *kv;
    if (key == "Memory domain") {
      md = value;
      UcxMemoryDomain m;
      m.name = md;
      d.memory_domains.push_back(std::move(m));
    } else if ((key == "Component" || key == "component") && !d.memory_domains.empty()) {
      d.memory_domains.back().component = value;
    } else if (key == "register" && !d.memory_domains.empty()) {
      d.memory_domains.back().dmabuf = d.memory_domains.back().dmabuf || text::contains(value, "dmabuf");
    } else if (key == "memory types" && !d.memory_domains.empty()) {
      auto& m = d.memory_domains.back();
      m.memory_types = memory_types(value, m.dmabuf);
    } else if (key == "Transport") {
      transport = value;
      if (indent < 6) d.old_layout = true;
      on_transport(d, value, md);
    } else if (key == "Device") {
      on_device(d, value, transport, md);
    } else if (key == "Type" && !d.transports.empty()) {
      d.transports.back().type = value;
    } else if (key == "Connection manager") {
      d.connection_managers.emplace_back(value);
    }
  }
  return d;
}

}  // namespace icheck::probe
