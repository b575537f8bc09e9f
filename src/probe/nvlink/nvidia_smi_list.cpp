#include "probe/parsers.hpp"
#include "util/text.hpp"

namespace icheck::probe {
namespace {

// "(UUID: GPU-...)" -> "GPU-..."
std::string uuid_in(std::string_view line) {
  auto at = line.find("(UUID: ");
  if (at == std::string_view::npos) return {};
  auto rest = line.substr(at + 7);
  return std::string(rest.substr(0, rest.find(')')));
}

}  // namespace

std::vector<Gpu> parse_nvidia_smi_list(std::string_view out) {
  // GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-...)
  //   MIG 1g.20gb     Device  0: (UUID: MIG-...)
  std::vector<Gpu> gpus;
  for (auto raw : text::lines(out)) {
    auto line = text::trim(raw);
    if (line.starts_with("GPU ")) {
      auto colon = line.find(':');
      auto index = colon == std::string_view::npos ? std::nullopt : text::to_int(line.substr(4, colon - 4));
      if (!index) continue;
      Gpu gpu;
      gpu.index = static_cast<int>(*index);
      auto rest = text::trim(line.substr(colon + 1));
      gpu.name = text::trim(rest.substr(0, rest.find(" (UUID:")));
      gpu.uuid = uuid_in(line);
      gpus.push_back(std::move(gpu));
    } else if (line.starts_with("MIG ") && !gpus.empty()) {
      auto w = text::words(line);
      if (w.size() < 4 || w[2] != "Device") continue;
      MigDevice mig;
      mig.profile = w[1];
      auto n = w[3];
      if (n.ends_with(':')) n.remove_suffix(1);
      mig.device = static_cast<int>(text::to_int(n).value_or(-1));
      mig.uuid = uuid_in(line);
      gpus.back().migs.push_back(std::move(mig));
    }
  }
  return gpus;
}

}  // namespace icheck::probe
