#include "probe/ucx/srq_facts.hpp"
#include "util/text.hpp"

namespace icheck::probe {

const DeviceSrq* SrqFacts::find(std::string_view device) const {
  for (const auto& d : devices)
    if (d.device == device)
      return &d;
  return nullptr;
}

SrqFacts parse_ibv_caps(std::string_view body) {
  SrqFacts f;
  std::string device;
  bool ended_ok = false;
  for (auto raw : text::lines(body)) {
    auto line = text::trim(raw);
    auto kv = text::key_value(line);
    if (line.starts_with("rc=")) {
      ended_ok = line == "rc=0";
    } else if (kv && kv->first == "hca_id") {
      device = std::string(kv->second);
    } else if (kv && kv->first == "max_srq" && !device.empty()) {
      if (auto n = text::to_int(kv->second))
        f.devices.push_back({device, *n});
      device.clear();
    }
  }
  f.read = ended_ok && !f.devices.empty();
  return f;
}

}  // namespace icheck::probe
