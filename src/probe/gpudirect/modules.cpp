#include <cctype>

#include "probe/parsers.hpp"
#include "util/text.hpp"

namespace icheck::probe {
namespace {

bool module_name(std::string_view w) {
  if (w.empty()) return false;
  for (char c : w)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  return true;
}

// "a,b," or "a,b" (lsmod) or "-" (nothing): the modules that use this one.
std::vector<std::string> users(std::string_view list) {
  std::vector<std::string> out;
  if (list == "-") return out;
  for (auto u : text::split(list, ','))
    if (!u.empty()) out.emplace_back(u);
  return out;
}

}  // namespace

std::vector<KernelModule> parse_proc_modules(std::string_view out) {
  // name size refcount deps state address [taint]
  std::vector<KernelModule> modules;
  for (auto raw : text::lines(out)) {
    auto w = text::words(raw);
    if (w.size() < 6 || !module_name(w[0])) continue;
    auto size = text::to_int(w[1]);
    auto refs = text::to_int(w[2]);
    if (!size || !refs || (w[4] != "Live" && w[4] != "Loading" && w[4] != "Unloading")) continue;
    KernelModule m;
    m.name = w[0];
    m.size = static_cast<std::uint64_t>(*size);
    m.refcount = static_cast<int>(*refs);
    m.used_by = users(w[3]);
    m.state = w[4];
    modules.push_back(std::move(m));
  }
  return modules;
}

std::vector<KernelModule> parse_lsmod(std::string_view out) {
  // "Module  Size  Used by" header, then: name size count [users]
  std::vector<KernelModule> modules;
  for (auto raw : text::lines(out)) {
    auto w = text::words(raw);
    if (w.size() < 3 || w.size() > 4 || !module_name(w[0])) continue;
    auto size = text::to_int(w[1]);
    auto refs = text::to_int(w[2]);
    if (!size || !refs) continue;
    KernelModule m;
    m.name = w[0];
    m.size = static_cast<std::uint64_t>(*size);
    m.refcount = static_cast<int>(*refs);
    if (w.size() == 4) m.used_by = users(w[3]);
    modules.push_back(std::move(m));
  }
  return modules;
}

NvidiaDriver parse_nvidia_driver_version(std::string_view out) {
  // NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release Build  (...)
  // NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023
  NvidiaDriver driver;
  for (auto raw : text::lines(out)) {
    auto line = text::trim(raw);
    if (!line.starts_with("NVRM version:")) continue;
    driver.present = true;
    driver.raw = line;
    driver.open_kernel_module = text::contains(line, "Open Kernel Module");
    auto w = text::words(line);
    for (std::size_t i = 0; i + 1 < w.size(); ++i)
      if (w[i] == "Module" || (w[i] == "x86_64" && driver.open_kernel_module) ||
          (w[i] == "aarch64" && driver.open_kernel_module)) {
        auto candidate = w[i + 1];
        if (!candidate.empty() && std::isdigit(static_cast<unsigned char>(candidate[0]))) {
          driver.version = candidate;
          break;
        }
      }
  }
  return driver;
}

std::optional<int> parse_proc_devices_major(std::string_view out, std::string_view name) {
  // "Character devices:" / " 509 gdrdrv"
  for (auto raw : text::lines(out)) {
    auto w = text::words(raw);
    if (w.size() == 2 && w[1] == name)
      if (auto major = text::to_int(w[0])) return static_cast<int>(*major);
  }
  return std::nullopt;
}

}  // namespace icheck::probe
