#pragma once
// Kubeconfig loading and context/namespace resolution with client-go's rules
// (client-go tools/clientcmd loader.go, client_config.go, merged_client_builder.go; see
// shared/reference/kubectl.md §1). Only names, server, and namespace are read: auth stays
// kubectl's business, the children get the user's flags.
//
// Error messages are the whole stderr line kubectl prints for the same input, prefix
// ("error: " or "Error in configuration: ") included; print them verbatim.

#include "kube/environment.hpp"
#include "kube/flags.hpp"
#include "util/expected.hpp"

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::kube {

struct KubeContext {
  std::string cluster;
  std::string user;
  std::string namespace_;
};

struct Kubeconfig {
  std::string current_context;
  std::map<std::string, std::string> cluster_servers; // cluster name -> server
  std::map<std::string, KubeContext> contexts;
  std::set<std::string> users;
};

struct ResolvedKube {
  std::string context; // "" when none (no current-context, or in-cluster)
  std::string cluster;
  std::string user;
  std::string namespace_;
  bool all_namespaces = false;
  std::string server; // for display and error texts only
  std::vector<std::string> files;
};

// The files kubectl would read: --kubeconfig, else $KUBECONFIG (deduplicated, empty entries
// and missing files dropped), else $HOME/.kube/config if it exists.
Expected<std::vector<std::string>> kubeconfig_files(const KubeFlags& flags, const Environment& env);

Expected<Kubeconfig> parse_kubeconfig(std::string_view yaml_text, const std::string& path);

// First definition of a name wins, whole; first non-empty current-context wins.
void merge_kubeconfig(Kubeconfig& into, const Kubeconfig& later);

Expected<Kubeconfig> load_kubeconfig(const std::vector<std::string>& files, const Environment& env);

Expected<ResolvedKube> resolve_kube(const KubeFlags& flags, const Environment& env);

} // namespace icheck::kube
