#include "probe/parsers.hpp"
#include "util/text.hpp"

namespace icheck::probe {

// The first line that names a known failure wins; a bare exit status is the fallback.
NvidiaSmiError classify_nvidia_smi_error(std::string_view out, std::optional<int> exit_code) {
  NvidiaSmiError e;
  for (auto raw : text::lines(out)) {
    auto line = text::trim(raw);
    if (text::contains(line, "command not found") || text::contains(line, "nvidia-smi: not found"))
      e = {NvidiaSmiErrorKind::not_found, std::string(line)};
    else if (text::contains(line, "couldn't communicate with the NVIDIA driver"))
      e = {NvidiaSmiErrorKind::no_driver_comm, std::string(line)};
    else if (text::contains(line, "Driver/library version mismatch"))
      e = {NvidiaSmiErrorKind::version_mismatch, std::string(line)};
    else if (text::contains(line, "Failed to initialize NVML: Unknown Error"))
      e = {NvidiaSmiErrorKind::nvml_unknown, std::string(line)};
    else if (line == "No devices were found")
      e = {NvidiaSmiErrorKind::no_devices, std::string(line)};
    else if (line.starts_with("Failed to initialize NVML") || line.starts_with("NVIDIA-SMI has failed"))
      e = {NvidiaSmiErrorKind::other, std::string(line)};
    else
      continue;
    return e;
  }
  if (exit_code == 127) return {NvidiaSmiErrorKind::not_found, "exit 127"};
  if (exit_code && *exit_code != 0) {
    auto all = text::lines(out);
    std::string first;
    for (auto l : all)
      if (!text::trim(l).empty()) { first = text::trim(l); break; }
    return {NvidiaSmiErrorKind::other, first.empty() ? "exit " + std::to_string(*exit_code) : first};
  }
  return e;
}

}  // namespace icheck::probe
