#include "probe/stack/stack_versions.hpp"

#include "outside/mask.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace icheck::probe {
namespace {

// dist-info project names (PEP 427, '-' as '_') -> the fact's library name.
std::string library_of(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  name = text::lower(name);
  static const std::array<std::pair<std::string_view, std::string_view>, 8> exact{{
      {"nixl", "nixl"},
      {"vllm", "vllm"},
      {"sglang", "sglang"},
      {"tensorrt_llm", "tensorrt_llm"},
      {"ai_dynamo", "dynamo"},
      {"ai_dynamo_runtime", "dynamo-runtime"},
      {"torch", "torch"},
      {"mooncake_transfer_engine", "mooncake"},
  }};
  for (auto [from, to] : exact)
    if (name == from)
      return std::string(to);
  if (name.starts_with("nixl_cu"))
    return "nixl-" + name.substr(5);  // nixl-cu12
  if (name.starts_with("mooncake_transfer_engine"))
    return "mooncake";
  if (name.starts_with("nvidia_nccl_cu"))
    return "nccl.wheel";
  if (name.starts_with("nvidia_cuda_runtime"))
    return "cuda.wheel";
  return "";
}

std::string_view basename(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

void read_dist(std::string_view path, StackVersions& out) {
  auto base = basename(path);
  if (!base.ends_with(".dist-info"))
    return;
  base.remove_suffix(10);
  auto dash = base.find('-');
  if (dash == std::string_view::npos)
    return;
  auto lib = library_of(std::string(base.substr(0, dash)));
  auto version = base.substr(dash + 1);
  if (!lib.empty() && !version.empty())
    out.add(lib, std::string(version), std::string(path));
}

// libnccl.so.2.21.5 -> nccl 2.21.5; libcudart.so.12.8.90 -> cuda 12.8.90.
void read_lib(std::string_view path, StackVersions& out) {
  auto base = basename(path);
  for (auto [prefix, lib] :
       {std::pair{"libnccl.so.", "nccl"}, std::pair{"libcudart.so.", "cuda"}}) {
    std::string_view p = prefix;
    if (base.starts_with(p) && std::count(base.begin(), base.end(), '.') >= 4)
      out.add(lib, std::string(base.substr(p.size())), std::string(path));
  }
}

}  // namespace

void StackVersions::add(const std::string& lib, const std::string& version,
                        const std::string& where) {
  copies[lib].emplace(version, where);
}

std::string StackVersions::version(const std::string& lib) const {
  auto it = copies.find(lib);
  if (it == copies.end() || it->second.size() != 1)
    return "";
  return it->second.begin()->first;
}

StackVersions parse_stack_versions(std::string_view body) {
  StackVersions out;
  out.read = true;
  for (auto line : text::lines(body)) {
    line = text::trim(line);
    auto space = line.find(' ');
    if (space == std::string_view::npos)
      continue;
    auto kind = line.substr(0, space);
    auto rest = text::trim(line.substr(space + 1));
    if (kind == "dist") {
      read_dist(rest, out);
    } else if (kind == "lib") {
      read_lib(rest, out);
    } else if (kind == "pc") {
      auto at = rest.find(" Version:");
      if (at != std::string_view::npos)
        out.add("ucx.system", std::string(text::trim(rest.substr(at + 9))),
                std::string(rest.substr(0, at)));
    } else if (kind == "cuda") {
      // "  "version" : "12.8.1"" -> 12.8.1
      auto colon = rest.find(':');
      if (colon == std::string_view::npos)
        continue;
      auto v = text::trim(rest.substr(colon + 1));
      while (!v.empty() && (v.front() == '"' || v.front() == ' '))
        v.remove_prefix(1);
      while (!v.empty() && (v.back() == '"' || v.back() == ',' || v.back() == ' '))
        v.remove_suffix(1);
      if (!v.empty())
        out.add("cuda", std::string(v), "/usr/local/cuda/version.json");
    } else if (kind == "nixllib") {
      if (std::find(out.nixl_libs.begin(), out.nixl_libs.end(), rest) == out.nixl_libs.end())
        out.nixl_libs.emplace_back(rest);
    } else if (kind == "nixlld") {
      out.nixl_ld_first = rest;
    } else if (kind == "kernel") {
      out.add("kernel", std::string(rest), "/proc/sys/kernel/osrelease");
    }
  }
  return out;
}

void read_fi_info_version(std::string_view output, StackVersions& into) {
  for (auto line : text::lines(output)) {
    line = text::trim(line);
    if (line.starts_with("libfabric:")) {
      auto v = text::trim(line.substr(10));
      if (!v.empty())
        into.add("libfabric", std::string(v), "fi_info --version");
      return;
    }
  }
}

std::map<std::string, std::string> parse_whole_env(std::string_view text) {
  std::map<std::string, std::string> out;
  while (!text.empty()) {
    const auto space = text.find(' ');
    const auto eq = text.find('=');
    if (space == std::string_view::npos || eq == std::string_view::npos || eq < space)
      break;
    std::size_t bytes = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + space, bytes);
    if (ec != std::errc() || end != text.data() + space || bytes > text.size() - eq - 1)
      break;
    auto name = text.substr(space + 1, eq - space - 1);
    out[std::string(name)] = outside::shown_value(name, text.substr(eq + 1, bytes));
    text.remove_prefix(std::min(text.size(), eq + 1 + bytes + 1));
  }
  return out;
}

}  // namespace icheck::probe
