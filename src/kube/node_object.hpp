#pragma once
// What a pod's node object says that the KV path cares about, from `kubectl get nodes NAME... -o
// json` (a List, or the Node itself for one name): its InternalIP and which cloud runs it (the
// spec.providerID scheme, else well-known node labels). Pure: the read is check/node_objects.

#include <map>
#include <string>
#include <string_view>

namespace icheck::kube {

struct NodeObject {
  std::string internal_ip;  // status.addresses type InternalIP (the first); "" when none
  std::string cloud;        // aws | gcp | azure | oci | ... ; "" when neither ID nor labels say
};

// Node name -> what it says; a body that is no Node or List of Nodes gives none.
std::map<std::string, NodeObject> parse_node_objects(std::string_view json);

// spec.providerID's scheme ("aws:///us-east-1a/i-0abc" -> "aws", "gce://p/z/n" -> "gcp"), else a
// label only one cloud's managed nodes carry (eks.amazonaws.com/..., cloud.google.com/gke-...,
// kubernetes.azure.com/..., oci.oraclecloud.com/...); "" when neither says.
std::string cloud_of(std::string_view provider_id,
                     const std::map<std::string, std::string>& labels);

}  // namespace icheck::kube
