#include "kube/node_object.hpp"

#include "util/text.hpp"

#include <array>
#include <boost/json.hpp>
#include <utility>

namespace icheck::kube {
namespace {

namespace json = boost::json;

// The provider names cloud controllers write before "://" (kubernetes cloud-provider's
// "<ProviderName>://<ProviderSpecificNodeID>"), spelled as docs/knowledge.md's platform.cloud.
constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kSchemes{{
    {"aws", "aws"},
    {"gce", "gcp"},
    {"azure", "azure"},
    {"oci", "oci"},
    {"ibm", "ibm"},
    {"alicloud", "alibaba"},
    {"tencentcloud", "tencent"},
    {"digitalocean", "digitalocean"},
    {"linode", "linode"},
    {"hcloud", "hetzner"},
    {"openstack", "openstack"},
    {"vsphere", "vsphere"},
}};

constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kLabelPrefixes{{
    {"eks.amazonaws.com/", "aws"},
    {"cloud.google.com/gke-", "gcp"},
    {"kubernetes.azure.com/", "azure"},
    {"oci.oraclecloud.com/", "oci"},
}};

std::string string_at(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
}

const json::object* object_at(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v != nullptr && v->is_object() ? &v->as_object() : nullptr;
}

bool is_address(const std::string& s) {
  return !s.empty() && s.size() <= 45 &&
         s.find_first_not_of("0123456789abcdefABCDEF:.") == std::string::npos;
}

void add_node(const json::value& v, std::map<std::string, NodeObject>& out) {
  if (!v.is_object() || string_at(v.as_object(), "kind") != "Node")
    return;
  const auto& node = v.as_object();
  const auto* meta = object_at(node, "metadata");
  const std::string name = meta != nullptr ? string_at(*meta, "name") : "";
  if (name.empty())
    return;
  std::map<std::string, std::string> labels;
  if (const auto* l = meta != nullptr ? object_at(*meta, "labels") : nullptr)
    for (const auto& [key, value] : *l)
      if (value.is_string())
        labels[std::string(key)] = std::string(value.as_string());
  NodeObject n;
  const auto* spec = object_at(node, "spec");
  n.cloud = cloud_of(spec != nullptr ? string_at(*spec, "providerID") : "", labels);
  const auto* status = object_at(node, "status");
  const auto* addresses = status != nullptr ? status->if_contains("addresses") : nullptr;
  if (addresses != nullptr && addresses->is_array())
    for (const auto& a : addresses->as_array())
      if (a.is_object() && string_at(a.as_object(), "type") == "InternalIP") {
        n.internal_ip = string_at(a.as_object(), "address");
        if (!is_address(n.internal_ip))
          n.internal_ip.clear();  // not an IPv4/IPv6 literal: never shown, unknown
        break;
      }
  out[name] = std::move(n);
}

}  // namespace

std::string cloud_of(std::string_view provider_id,
                     const std::map<std::string, std::string>& labels) {
  if (auto at = provider_id.find("://"); at != std::string_view::npos && at > 0) {
    const std::string scheme = text::lower(provider_id.substr(0, at));
    for (const auto& [name, cloud] : kSchemes)
      if (scheme == name)
        return std::string(cloud);
  }
  if (provider_id.starts_with("ocid1.instance."))  // OKE's kubelet --provider-id: the bare OCID
    return "oci";
  for (const auto& [key, value] : labels)
    for (const auto& [prefix, cloud] : kLabelPrefixes)
      if (key.starts_with(prefix))
        return std::string(cloud);
  return "";
}

std::map<std::string, NodeObject> parse_node_objects(std::string_view text) {
  std::map<std::string, NodeObject> out;
  boost::system::error_code ec;
  const auto doc = json::parse(text, ec);
  if (ec || !doc.is_object())
    return out;
  if (const auto* items = doc.as_object().if_contains("items");
      items != nullptr && items->is_array())
    for (const auto& item : items->as_array())
      add_node(item, out);
  else
    add_node(doc, out);
  return out;
}

}  // namespace icheck::kube
