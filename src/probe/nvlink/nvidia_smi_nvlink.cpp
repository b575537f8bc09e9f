#include "probe/parsers.hpp"
#include "util/text.hpp"

namespace icheck::probe {
namespace {

NvlinkGpu* gpu_for(NvlinkStatus& status, std::string_view line) {
  // "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-...)"; repeated headers (e.g. --capabilities
  // printed after --status) continue the same GPU.
  auto colon = line.find(':');
  auto index = colon == std::string_view::npos ? std::nullopt : text::to_int(line.substr(4, colon - 4));
  if (!index) return nullptr;
  for (auto& g : status.gpus)
    if (g.index == *index) return &g;
  NvlinkGpu gpu;
  gpu.index = static_cast<int>(*index);
  auto rest = text::trim(line.substr(colon + 1));
  gpu.name = text::trim(rest.substr(0, rest.find(" (UUID:")));
  if (auto at = line.find("(UUID: "); at != std::string_view::npos) {
    auto u = line.substr(at + 7);
    gpu.uuid = u.substr(0, u.find(')'));
  }
  status.gpus.push_back(std::move(gpu));
  return &status.gpus.back();
}

void add_link(NvlinkGpu& gpu, std::string_view line) {
  // "Link 3: 26.562 GB/s" or "Link 3: <inactive>"; "Link 0, P2P ..." is not a status line.
  auto colon = line.find(':');
  if (colon == std::string_view::npos) return;
  auto index = text::to_int(line.substr(5, colon - 5));
  if (!index) return;
  for (const auto& l : gpu.links)
    if (l.index == *index) return;
  NvlinkLink link;
  link.index = static_cast<int>(*index);
  link.text = text::trim(line.substr(colon + 1));
  link.active = link.text != "<inactive>" && !link.text.empty();
  if (link.active)
    link.rate_gbs = text::leading_rate(link.text);  // nullopt: active, unreadable
  gpu.links.push_back(std::move(link));
}

}  // namespace

NvlinkStatus parse_nvidia_smi_nvlink(std::string_view out) {
  NvlinkStatus status;
  NvlinkGpu* gpu = nullptr;
  for (auto raw : text::lines(out)) {
    auto line = text::trim(raw);
    if (line.starts_with("GPU ")) gpu = gpu_for(status, line);
    else if (line.starts_with("Link ") && gpu != nullptr) add_link(*gpu, line);
    else if (text::contains(line, "all links are inactive") && gpu != nullptr) gpu->all_inactive_message = true;
  }
  status.empty = text::trim(out).empty();
  return status;
}

}  // namespace icheck::probe
