// TRT-LLM workers read their engine settings (cache_transceiver_config among them) from the file
// given by --extra-engine-args; Dynamo's TRT-LLM recipes ship that file as a ConfigMap in the
// same manifest, mounted into the worker (shared/reference/dynamo-nixl.md).
#include "recipe/engine_config.hpp"

#include "dynamo/command_words.hpp"
#include "dynamo/engine_flags.hpp"
#include "dynamo/framework.hpp"
#include "recipe/services.hpp"
#include "recipe/yaml_read.hpp"
#include "util/text.hpp"

#include <algorithm>

namespace icheck::recipe::detail {
namespace {

// The value of --extra-engine-args (its own word or `=value`, quoted or not), references expanded;
// for SGLang, whose --config file holds its server arguments, the value of --config.
std::string engine_args_path(const Service& s) {
  std::string line;
  for (const auto& arg : s.args) line += (line.empty() ? "" : " ") + arg;
  line = dynamo::expand_env_refs(line, literal_env(s));
  auto path = text::flag_value(line, std::string(dynamo::kTrtllmEngineArgsFlag));
  if (path.empty() && dynamo::framework_of(line) == dynamo::Framework::sglang)
    path = text::flag_value(line, std::string(dynamo::kSglangConfigFlag));
  return path;
}

}  // namespace

void read_config_mounts(const YAML::Node& pod_spec, const YAML::Node& container, Service& service) {
  std::map<std::string, std::string> config_volumes;  // volume name -> ConfigMap name
  const YAML::Node volumes = child(pod_spec, "volumes");
  if (volumes.IsDefined() && volumes.IsSequence()) {
    for (const auto& v : volumes) {
      const std::string map = scalar(child(child(v, "configMap"), "name"));
      if (!map.empty()) config_volumes[scalar(child(v, "name"))] = map;
    }
  }
  const YAML::Node mounts = child(container, "volumeMounts");
  if (!mounts.IsDefined() || !mounts.IsSequence()) return;
  for (const auto& m : mounts) {
    auto found = config_volumes.find(scalar(child(m, "name")));
    std::string path = scalar(child(m, "mountPath"));
    if (found == config_volumes.end() || path.empty()) continue;
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    service.config_mounts.push_back({path, found->second, scalar(child(m, "subPath"))});
  }
}

void resolve_engine_configs(ManifestFile& file) {
  for (auto& dgd : file.deployments) {
    for (auto& s : dgd.services) {
      s.engine_config_path = engine_args_path(s);
      if (s.engine_config_path.empty()) continue;
      const auto& path = s.engine_config_path;
      for (const auto& mount : s.config_mounts) {
        std::string key;
        if (!mount.sub_path.empty()) {
          if (path != mount.path) continue;
          key = mount.sub_path;
        } else if (path.size() > mount.path.size() + 1 && path.starts_with(mount.path + "/")) {
          key = path.substr(mount.path.size() + 1);
        } else {
          continue;
        }
        auto map = file.config_maps.find(mount.config_map);
        if (map == file.config_maps.end()) continue;
        if (auto text = map->second.find(key); text != map->second.end()) {
          s.engine_config = text->second;
          s.engine_config_map = mount.config_map;
        }
      }
    }
  }
}

}  // namespace icheck::recipe::detail

namespace icheck::recipe {

namespace {

// An engine config file's text as a YAML mapping; nullopt when it is not one.
std::optional<YAML::Node> config_mapping(std::string_view text) {
  YAML::Node doc;
  try {
    doc = YAML::Load(std::string(text));
  } catch (const YAML::Exception&) {
    return std::nullopt;
  }
  if (!doc.IsDefined() || !doc.IsMap())
    return std::nullopt;
  return doc;
}

}  // namespace

std::optional<std::string> sglang_transfer_backend(std::string_view text) {
  const auto doc = config_mapping(text);
  if (!doc)
    return std::nullopt;
  // The flag's name without its dashes, as SGLang's --config keys are written (either spelling).
  const std::string key(dynamo::kSglangTransferBackendFlag.substr(2));
  std::string underscored = key;
  std::replace(underscored.begin(), underscored.end(), '-', '_');
  for (const auto& k : {key, underscored})
    if (auto v = detail::scalar(detail::child(*doc, k)); !v.empty())
      return v;
  return std::string();
}

std::optional<std::string> transceiver_backend(std::string_view text) {
  const auto doc = config_mapping(text);
  if (!doc)
    return std::nullopt;
  return text::upper(
      detail::scalar(detail::child(detail::child(*doc, "cache_transceiver_config"), "backend")));
}

}  // namespace icheck::recipe
