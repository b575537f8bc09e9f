#include "rules/nixl/nixl_backend.hpp"

#include "dynamo/command_words.hpp"
#include "dynamo/engine_flags.hpp"
#include "recipe/engine_config.hpp"
#include "recipe/model.hpp"
#include "util/join.hpp"
#include "util/text.hpp"
#include "util/truthy.hpp"

#include <algorithm>
#include <set>
#include <string_view>

namespace icheck::rules {
namespace {

// Upper case without blanks: "ucx " and "UCX" name one backend.
std::string upper(std::string_view s) { return text::upper(text::trim(s)); }

// The strings of the first "backends": [...] list in text (backslash-escaped quotes of a
// shell string read as plain ones).
std::vector<std::string> backends_list(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), '\\'), text.end());
  auto key = text.find("\"backends\"");
  if (key == std::string::npos) return {};
  auto i = key + 10;
  while (i < text.size() && (text[i] == ' ' || text[i] == ':')) ++i;
  if (i >= text.size() || text[i] != '[') return {};
  auto close = text.find(']', i);
  if (close == std::string::npos) return {};
  std::vector<std::string> names;
  for (auto q = text.find('"', i); q != std::string::npos && q < close; q = text.find('"', q + 1)) {
    auto end = text.find('"', q + 1);
    if (end == std::string::npos || end > close) break;
    if (auto name = upper(std::string_view(text).substr(q + 1, end - q - 1)); !name.empty())
      names.push_back(name);
    q = end;
  }
  return names;
}

void add_unique(std::vector<std::string>& list, const std::string& name) {
  if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}

void add(KvBackends& b, const std::vector<std::string>& names, const std::string& source) {
  if (names.empty()) return;
  if (b.is_default()) {
    b.names.clear();
    b.source.clear();
  }
  for (const auto& n : names) add_unique(b.names, n);
  b.source += (b.source.empty() ? "" : ", ") + source;
}

// The first `"key": "value"` string value in text (escaped quotes read as plain ones).
std::string json_string(std::string text, const std::string& key) {
  text.erase(std::remove(text.begin(), text.end(), '\\'), text.end());
  auto at = text.find("\"" + key + "\"");
  if (at == std::string::npos) return {};
  at = text.find_first_not_of(" :", at + key.size() + 2);
  if (at == std::string::npos || text[at] != '"') return {};
  auto end = text.find('"', at + 1);
  return end == std::string::npos ? std::string() : text.substr(at + 1, end - at - 1);
}

void choose_library(KvBackends& b, const std::string& line, const std::optional<EngineTransceiver>& engine) {
  if (engine) {
    const std::string where = "cache_transceiver_config.backend" +
                              (engine->backend.empty() ? " unset" : ": " + engine->backend) + " in " + engine->where;
    // DEFAULT (and unset) is NIXL; any other name is the engine's own, known or not (an unknown
    // one is never read as NIXL: not_understood() says it).
    const bool nixl =
        engine->backend.empty() || engine->backend == "DEFAULT" || engine->backend == "NIXL";
    b.library = nixl ? "NIXL" : engine->backend;
    b.library_source = where;
    return;
  }
  if (line.find(dynamo::kTrtllmEngineArgsFlag) != std::string::npos) {
    b.library_source = std::string(dynamo::kTrtllmEngineArgsFlag) +
                       " file not read: cache_transceiver_config unknown, NIXL assumed";
    b.library_assumed = true;
    return;
  }
  if (auto sglang = text::flag_value(line, dynamo::kSglangTransferBackendFlag); !sglang.empty()) {
    b.library = upper(sglang);
    b.library_source = std::string(dynamo::kSglangTransferBackendFlag) + " " + sglang;
    return;
  }
  if (b.framework == dynamo::Framework::sglang) {
    // SGLang's own default is the Mooncake transfer engine (ServerArgs); a --config file not read
    // here may set another, so nothing is concluded then.
    const bool config = text::flag_value(line, dynamo::kSglangConfigFlag) != "";
    b.library = config ? "UNREAD" : "MOONCAKE";
    b.library_source =
        config
            ? std::string(dynamo::kSglangConfigFlag) +
                  " file not read: " + std::string(dynamo::kSglangTransferBackendFlag) + " unknown"
            : "SGLang's default (no " + std::string(dynamo::kSglangTransferBackendFlag) + ")";
    return;
  }
  if (auto connector = json_string(line, "kv_connector"); !connector.empty()) {
    // A multi-connector (PdConnector, MultiConnector) carries NixlConnector among its parts.
    const bool nixl = line.find("NixlConnector") != std::string::npos;
    b.library = nixl ? "NIXL" : connector;
    b.library_source = "kv_connector " + connector;
  }
}

}  // namespace

namespace {

// SGLang's --config file read from the recipe's ConfigMap: the command line as if its
// transfer-backend key were a flag, and without the --config it settled.
std::vector<std::string> with_sglang_config(const recipe::Service& s) {
  const auto backend = recipe::sglang_transfer_backend(*s.engine_config);
  if (!backend)
    return s.args;
  std::vector<std::string> args;
  for (const auto& arg : s.args)
    args.push_back(text::replace_all(
        arg, std::string(dynamo::kSglangConfigFlag) + " " + s.engine_config_path, ""));
  if (!backend->empty())
    args.push_back(std::string(dynamo::kSglangTransferBackendFlag) + " " + *backend);
  return args;
}

}  // namespace

KvBackends service_kv_backends(const recipe::Service& s) {
  std::optional<EngineTransceiver> engine;
  if (!s.engine_config)
    return kv_backends(recipe::literal_env(s), s.args, engine);
  std::string line;
  for (const auto& arg : s.args)
    line += (line.empty() ? "" : " ") + arg;
  if (dynamo::framework_of(line) == dynamo::Framework::sglang)
    return kv_backends(recipe::literal_env(s), with_sglang_config(s), engine);
  if (auto backend = recipe::transceiver_backend(*s.engine_config))
    engine = EngineTransceiver{*backend,
                               s.engine_config_path + " from ConfigMap " + s.engine_config_map};
  return kv_backends(recipe::literal_env(s), s.args, engine);
}

std::optional<EngineTransceiver> engine_transceiver(const probe::NixlFacts& facts) {
  const auto& e = facts.engine_config;
  if (!e || !e->text) return std::nullopt;
  auto backend = recipe::transceiver_backend(*e->text);
  if (!backend) return std::nullopt;
  return EngineTransceiver{*backend, e->path + ", given to " + (e->comm.empty() ? "pid " + e->pid
                                                                               : e->comm + " (pid " + e->pid + ")")};
}

std::string KvBackends::not_understood() const {
  static const std::set<std::string> libraries{"NIXL", "UCX", "MPI", "MOONCAKE"};
  static const std::set<std::string> backends{"UCX",      "UCX_MO", "LIBFABRIC",
                                              "MOONCAKE", "UCCL",   "GPUNETIO"};
  std::vector<std::string> out;
  if (!libraries.contains(upper(library)))
    out.push_back("library " + library);
  if (via_nixl())
    for (const auto& name : names)
      if (!backends.contains(name))
        out.push_back("backend " + name);
  return join(out);
}

std::string not_understood_text(const KvBackends& b, std::string_view what) {
  return std::string(what) + ": " + b.not_understood() + " not in the vocabulary (NIXL, " +
         std::string(kKnownKvNames) + "): whether KV can move between the pods is not judged";
}

bool KvBackends::over_ucx() const { return via_nixl() ? uses("UCX") : library == "UCX"; }

std::string KvBackends::path() const {
  return via_nixl() ? "NIXL with " + joined() : (library == "UCX" ? "UCX directly" : library) + ", not NIXL";
}

std::string kv_transfer_text(const KvBackends& b, std::string_view where) {
  std::string what = b.path();
  if (b.via_nixl()) {
    what += b.is_default() ? "; backend not set in " + std::string(where) + " (the framework's default)"
                           : "; backend from " + b.source;
  }
  if (!b.library_source.empty()) what += "; " + b.library_source;
  return b.kvbm.empty() ? what : what + "; KVBM: " + join(b.kvbm);
}

std::string kv_path_text(const KvBackends& b) {
  return b.library_source.empty() ? b.path() : b.path() + " (" + b.library_source + ")";
}

bool KvBackends::uses(const std::string& name) const {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<std::string> KvBackends::plugins_needed() const {
  auto all = names;
  for (const auto& n : kvbm) add_unique(all, n);
  return all;
}

std::string KvBackends::joined() const { return join(names); }

KvBackends kv_backends(const std::map<std::string, std::string>& env,
                       const std::vector<std::string>& command_line,
                       const std::optional<EngineTransceiver>& engine) {
  KvBackends b;
  std::string line;  // one string: a JSON value split over arguments reads whole again
  for (const auto& arg : command_line)
    line += (line.empty() ? "" : " ") + arg;
  line = dynamo::expand_env_refs(line, env);
  b.framework = dynamo::framework_of(line);
  // Named: split's views point into it (a temporary in the range would die before the loop).
  const std::string ib_device_flag = text::flag_value(line, dynamo::kSglangIbDeviceFlag);
  for (auto name : text::split(ib_device_flag, ','))
    if (auto device = text::trim(name); !device.empty())
      b.ib_devices.emplace_back(device);
  for (const auto& [name, value] : env) {
    if (auto real = dynamo::ignored_backend_var(b.framework, name); real && !upper(value).empty())
      b.ignored.push_back({name, value, *real});
  }
  for (auto name : {dynamo::kSglangNixlBackendVar, dynamo::kTrtllmNixlBackendVar}) {
    const std::string var(name);
    if (dynamo::ignored_backend_var(b.framework, var))
      continue;  // the framework does not read it
    if (auto it = env.find(var); it != env.end() && !upper(it->second).empty())
      add(b, {upper(it->second)}, var);
  }
  add(b, backends_list(line), std::string(dynamo::kVllmKvTransferConfigFlag));
  choose_library(b, line, engine);
  for (const auto& [name, value] : env) {
    if (name.starts_with(dynamo::kKvbmBackendPrefix) &&
        name.size() > dynamo::kKvbmBackendPrefix.size() && truthy(value))
      add_unique(b.kvbm, name.substr(dynamo::kKvbmBackendPrefix.size()));
  }
  return b;
}

}  // namespace icheck::rules
