#include "dynamo/transport_vars.hpp"

#include "dynamo/engine_flags.hpp"
#include "dynamo/framework.hpp"

#include <algorithm>
#include <cctype>

namespace icheck::dynamo {
namespace {

using enum VarMatch;

std::vector<TransportVar> make_table() {
  return {
      // name, match, containing, listed, node_probe, chooses_backend
      {"UCX_", prefix, {}, true, true, false},
      {"NCCL_", prefix, {}, true, true, false},
      {"NIXL_", prefix, {}, true, true, false},
      {"GLOO_", prefix, {}, true, false, false},
      {"VLLM_NIXL_", prefix, {}, true, false, false},
      {"TRTLLM_", prefix, {"NIXL", "UCX", "KVCACHE", "MNNVL"}, true, false, false},
      {kTrtllmNixlBackendVar, exact, {}, true, false, true},
      {kSglangNixlBackendVar, exact, {}, false, false, true},
      {kKvTransferConfigVar, exact, {}, false, false, true},
      {kKvbmBackendPrefix, prefix, {}, false, false, true},
      // Read so that a worker whose framework ignores them is told so (dynamo/framework.hpp).
      {kNixlBackendVar, exact, {}, true, true, true},  // also NIXL_*: both probes read it
      {kVllmNixlKvcacheBackendVar, exact, {}, true, false, true},
      {kVllmNixlBackendVar, exact, {}, true, false, true},
      {kMooncakeGidIndexVar, exact, {}, true, true, false},
      {kMooncakeDeviceFilterVar, exact, {}, true, true, false},
      {kMooncakeForceTcpVar, exact, {}, true, true, false},
  };
}

bool upper_name(std::string_view name) {
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) ||
           std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool matches(const TransportVar& v, std::string_view name) {
  if (v.match == exact)
    return name == v.name;
  if (!name.starts_with(v.name) || name.size() == v.name.size())
    return false;
  if (v.containing.empty())
    return true;
  return std::any_of(v.containing.begin(), v.containing.end(), [&](std::string_view part) {
    return name.find(part) != std::string_view::npos;
  });
}

template <class Pick> bool any_entry(std::string_view name, Pick pick) {
  const auto& table = transport_vars();
  return std::any_of(table.begin(), table.end(),
                     [&](const TransportVar& v) { return pick(v) && matches(v, name); });
}

// `NAME=*` for an exact name, `PREFIX*=*` for a prefix, `PREFIX*PART*=*` per part.
template <class Pick> std::string patterns(Pick pick) {
  std::string out;
  auto add = [&](std::string pattern) { out += (out.empty() ? "" : "|") + pattern + "=*"; };
  for (const auto& v : transport_vars()) {
    if (!pick(v))
      continue;
    const std::string name(v.name);
    if (v.match == exact) {
      add(name);
    } else if (v.containing.empty()) {
      add(name + "*");
    } else {
      for (auto part : v.containing)
        add(name + "*" + std::string(part) + "*");
    }
  }
  return out;
}

} // namespace

const std::vector<TransportVar>& transport_vars() {
  static const std::vector<TransportVar> table = make_table();
  return table;
}

const std::vector<std::string_view>& named_transport_vars() {
  static const std::vector<std::string_view> names{
      kUcxTlsVar,
      kUcxNetDevicesVar,
      kUcxIbAddrTypeVar,
      kUcxCudaIpcMnnvlVar,
      kUcxProtoInfoVar,
      kNcclIbDisableVar,
      kNcclIbHcaVar,
      kNcclMnnvlEnableVar,
      kNixlPluginDirVar,
      kUcxIbGidIndexVar,
      kNcclIbGidIndexVar,
      kMooncakeGidIndexVar,
      kMooncakeDeviceFilterVar,
      kMooncakeForceTcpVar,
      kTrtllmNixlBackendVar,
      kSglangNixlBackendVar,
      kKvTransferConfigVar,
      kNixlBackendVar,
      kVllmNixlKvcacheBackendVar,
      kVllmNixlBackendVar,
  };
  return names;
}

std::string setting(std::string_view name, std::string_view value) {
  std::string out(name);
  out += '=';
  out += value;
  return out;
}

bool is_transport_var(std::string_view name) {
  return any_entry(name, [](const TransportVar& v) { return v.listed; });
}

bool is_node_probe_var(std::string_view name) {
  return any_entry(name, [](const TransportVar& v) { return v.node_probe; });
}

bool is_backend_var(std::string_view name) {
  // Upper case only: a multi-line value's later lines are not variables.
  return upper_name(name) &&
         any_entry(name, [](const TransportVar& v) { return v.chooses_backend; });
}

std::string node_probe_env_patterns() {
  return patterns([](const TransportVar& v) { return v.node_probe; });
}

std::string backend_env_patterns() {
  return patterns([](const TransportVar& v) { return v.chooses_backend; });
}

} // namespace icheck::dynamo
