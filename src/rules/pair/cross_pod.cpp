#include "rules/pair/cross_pod.hpp"

#include "rules/node/node_view.hpp"
#include "util/join.hpp"


#include <functional>

namespace icheck::rules {
namespace {

using Key = std::function<std::string(const PodFacts&)>;

std::string ucx_version(const PodFacts& p) {
  if (p.node->ucx_version && !p.node->ucx_version->version.empty()) {
    return p.node->ucx_version->version;
  }
  return p.nixl->versions.ucx.value_or("");
}

std::string nixl_version(const PodFacts& p) { return p.nixl->versions.nixl.value_or(""); }

std::string kv_transfer(const PodFacts& p) { return p.kv_transfer; }

// "mlx5_0:1 400 Gb/s, mlx5_1:1 400 Gb/s" over Active ports: the NICs this pod can move KV through.
std::string active_ports(const PodFacts& p) {
  std::vector<std::string> ports;
  for (const auto& d : *node::rdma_devices(*p.node).list) {
    for (const auto& port : d.ports) {
      if (node::is_active(port)) {
        ports.push_back(node::port_id(port) + " " +
                        (port.rate_gbps ? node::format_rate(*port.rate_gbps) : "?") + " Gb/s");
      }
    }
  }
  return ports.empty() ? "none Active" : join(ports);
}

std::string transport_env(const PodFacts& p) {
  std::vector<std::string> pairs;
  for (const auto& [name, value] : p.node->transport_env) {
    pairs.push_back(name + "=" + value);
  }
  return join(pairs, " ");
}

// Env lines are long: name only the variables that differ.
std::string env_difference(const PodFacts& here, const PodFacts& there) {
  const auto& a = here.node->transport_env;
  const auto& b = there.node->transport_env;
  std::vector<std::string> names;
  for (const auto& [name, value] : a) {
    if (auto it = b.find(name); it == b.end() || it->second != value) {
      names.push_back(name);
    }
  }
  for (const auto& [name, value] : b) {
    if (!a.count(name)) {
      names.push_back(name);
    }
  }
  return join(names) + " differ from " + there.name;
}

struct Check {
  const char* name;
  report::Layer layer;
  Key key;
  bool same_role_only;
};

// Each pod that differs from the first pod (of its role, or of all) with a known value.
void compare(const std::vector<PodFacts>& pods, const Check& check,
             std::vector<std::vector<report::Finding>>& out) {
  for (std::size_t i = 0; i < pods.size(); ++i) {
    const auto value = check.key(pods[i]);
    for (std::size_t j = 0; j < i; ++j) {
      if (check.same_role_only && pods[j].role != pods[i].role) {
        continue;
      }
      const auto reference = check.key(pods[j]);
      if (value.empty() || reference.empty()) {
        continue;
      }
      if (value != reference) {
        report::Finding f;
        f.name = check.name;
        f.layer = check.layer;
        f.status = report::Status::warn;
        f.detail = check.layer == report::Layer::env
                       ? env_difference(pods[i], pods[j])
                       : "differs from " + pods[j].name + ": " + value + " here, " + reference +
                             " there";
        f.next = "make the " + std::string(check.name) +
                 " the same on every pod (same image, same manifest, same node pool)";
        out[i].push_back(std::move(f));
      }
      break;  // one reference per pod: the first comparable one
    }
  }
}

}  // namespace

std::vector<std::vector<report::Finding>> cross_pod_findings(const std::vector<PodFacts>& pods) {
  std::vector<std::vector<report::Finding>> out(pods.size());
  const Check checks[] = {
      {"transport env", report::Layer::env, transport_env, true},
      {"active ports", report::Layer::fabric, active_ports, true},
      {"ucx version", report::Layer::ucx, ucx_version, false},
      {"nixl version", report::Layer::nixl, nixl_version, false},
      {"kv transfer", report::Layer::nixl, kv_transfer, false},
  };
  for (const auto& check : checks) {
    compare(pods, check, out);
  }
  add_nvlink_domain_findings(pods, out);
  return out;
}

}  // namespace icheck::rules
