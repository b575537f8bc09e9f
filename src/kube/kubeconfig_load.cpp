#include "kube/kubeconfig.hpp"

#include <algorithm>
#include <yaml-cpp/yaml.h>

namespace icheck::kube {
namespace {

std::vector<std::string> split_path_list(const std::string& list) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (start <= list.size()) {
    auto end = list.find(':', start);
    if (end == std::string::npos)
      end = list.size();
    parts.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

std::vector<std::string> existing_unique(const std::vector<std::string>& paths,
                                         const Environment& env) {
  std::vector<std::string> files;
  for (const auto& path : paths) {
    if (path.empty() || !env.exists(path))
      continue;
    if (std::find(files.begin(), files.end(), path) == files.end())
      files.push_back(path);
  }
  return files;
}

std::string scalar(const YAML::Node& node, const char* key) {
  const auto value = node[key];
  return value && value.IsScalar() ? value.as<std::string>() : std::string();
}

// client-go's conversion error for a name listed twice in one file (loader_test.go
// TestDuplicateClusterName).
Error duplicate_name(const std::string& path, const char* list_type, const char* map_type,
                     const std::string& name) {
  return Error{"error: error loading config file \"" + path + "\": error converting *[]" +
               list_type + " into *map[string]*api." + map_type + ": duplicate name \"" + name +
               "\" in list"};
}

// Walks one named list (clusters/contexts/users); on_entry gets name and inner stanza.
template <class OnEntry>
std::optional<Error> each_named(const YAML::Node& root, const char* key, const char* stanza,
                                const std::string& path, const char* list_type,
                                const char* map_type, OnEntry on_entry) {
  std::set<std::string> seen;
  const auto list = root[key];
  if (!list || !list.IsSequence())
    return std::nullopt;
  for (const auto& item : list) {
    const auto name = scalar(item, "name");
    if (!seen.insert(name).second)
      return duplicate_name(path, list_type, map_type, name);
    on_entry(name, item[stanza]);
  }
  return std::nullopt;
}

std::optional<Error> read_lists(const YAML::Node& root, const std::string& path,
                                Kubeconfig& config) {
  auto error = each_named(root, "clusters", "cluster", path, "NamedCluster", "Cluster",
                          [&](const std::string& name, const YAML::Node& cluster) {
                            config.cluster_servers[name] = scalar(cluster, "server");
                          });
  if (error)
    return error;
  error = each_named(root, "contexts", "context", path, "NamedContext", "Context",
                     [&](const std::string& name, const YAML::Node& context) {
                       config.contexts[name] =
                           KubeContext{scalar(context, "cluster"), scalar(context, "user"),
                                       scalar(context, "namespace")};
                     });
  if (error)
    return error;
  return each_named(root, "users", "user", path, "NamedAuthInfo", "AuthInfo",
                    [&](const std::string& name, const YAML::Node&) { config.users.insert(name); });
}

} // namespace

Expected<std::vector<std::string>> kubeconfig_files(const KubeFlags& flags,
                                                    const Environment& env) {
  if (flags.kubeconfig && !flags.kubeconfig->empty()) {
    // An explicit file must exist: kubectl returns os.Stat's error as-is.
    if (!env.exists(*flags.kubeconfig)) {
      return Error{"error: stat " + *flags.kubeconfig + ": no such file or directory"};
    }
    return std::vector<std::string>{*flags.kubeconfig};
  }
  if (auto list = non_empty_env(env, "KUBECONFIG")) {
    return existing_unique(split_path_list(*list), env);
  }
  const auto home = env.getenv("HOME").value_or("");
  return existing_unique({home + "/.kube/config"}, env);
}

Expected<Kubeconfig> parse_kubeconfig(std::string_view yaml_text, const std::string& path) {
  Kubeconfig config;
  try {
    const auto root = YAML::Load(std::string(yaml_text));
    if (!root.IsMap())
      return config; // an empty file is a valid empty config
    config.current_context = scalar(root, "current-context");
    if (auto error = read_lists(root, path, config))
      return *error;
  } catch (const YAML::Exception& e) {
    return Error{"error: error loading config file \"" + path + "\": " + e.what()};
  }
  return config;
}

void merge_kubeconfig(Kubeconfig& into, const Kubeconfig& later) {
  if (into.current_context.empty())
    into.current_context = later.current_context;
  into.cluster_servers.insert(later.cluster_servers.begin(), later.cluster_servers.end());
  into.contexts.insert(later.contexts.begin(), later.contexts.end());
  into.users.insert(later.users.begin(), later.users.end());
}

Expected<Kubeconfig> load_kubeconfig(const std::vector<std::string>& files,
                                     const Environment& env) {
  Kubeconfig merged;
  for (const auto& path : files) {
    auto text = env.read_file(path);
    if (!text) {
      return Error{"error: error loading config file \"" + path + "\": " + text.error().message};
    }
    auto config = parse_kubeconfig(*text, path);
    if (!config)
      return config.error();
    merge_kubeconfig(merged, *config);
  }
  return merged;
}

} // namespace icheck::kube
