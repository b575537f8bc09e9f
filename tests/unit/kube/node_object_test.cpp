// A pod's node object: its InternalIP and its cloud (spec.providerID, else well-known labels).
#include "kube/node_object.hpp"

#include <doctest/doctest.h>
#include <fstream>
#include <sstream>

using namespace icheck::kube;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(ICHECK_TEST_DATA) + "/fixtures/kube/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("node object: kubectl get nodes A B -o json, InternalIP and cloud per node") {
  const auto nodes = parse_node_objects(fixture("nodes_two_clouds.json"));
  REQUIRE(nodes.size() == 2);
  const auto& eks = nodes.at("ip-10-0-14-137.us-west-2.compute.internal");
  CHECK(eks.internal_ip == "10.0.14.137");
  CHECK(eks.cloud == "aws");
  const auto& gke = nodes.at("gke-dynamo-a3-mega-5d1c2b3a-x7k2");
  CHECK(gke.internal_ip == "10.128.0.41");  // not the ExternalIP
  CHECK(gke.cloud == "gcp");
}

TEST_CASE("node object: one name gives the Node itself, anything else gives none") {
  const auto one = parse_node_objects(
      R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"},"status":{"addresses":[)"
      R"({"type":"Hostname","address":"n1"}]}})");
  REQUIRE(one.size() == 1);
  CHECK(one.at("n1").internal_ip.empty());  // no InternalIP: unknown
  CHECK(one.at("n1").cloud.empty());        // neither ID nor labels: unknown
  const auto odd =
      parse_node_objects(R"({"kind":"Node","metadata":{"name":"n2"},"status":{"addresses":[)"
                         R"({"type":"InternalIP","address":"10.0.0.1\u001b]0;x\u0007"}]}})");
  CHECK(odd.at("n2").internal_ip.empty());  // not an address literal: never shown
  CHECK(parse_node_objects(R"({"kind":"Node","metadata":{"name":"n3"},"status":{"addresses":[)"
                           R"({"type":"InternalIP","address":"fd00::17"}]}})")
            .at("n3")
            .internal_ip == "fd00::17");
  CHECK(parse_node_objects("").empty());
  CHECK(parse_node_objects("Error from server (Forbidden): nodes \"n1\" is forbidden").empty());
  CHECK(parse_node_objects(R"({"kind":"Status","status":"Failure","code":404})").empty());
  CHECK(parse_node_objects(R"({"kind":"List","items":[{"kind":"Pod","metadata":{"name":"p"}}]})")
            .empty());
}

TEST_CASE("node object: the cloud from providerID's scheme, else a managed node pool's labels") {
  const std::map<std::string, std::string> none;
  CHECK(cloud_of("aws:///us-east-1a/i-0123456789abcdef0", none) == "aws");
  CHECK(cloud_of("gce://proj/us-central1-a/gke-x", none) == "gcp");
  CHECK(cloud_of("azure:///subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/"
                 "virtualMachineScaleSets/gpu/virtualMachines/0",
                 none) == "azure");
  CHECK(cloud_of("oci://ocid1.instance.oc1.iad.abc", none) == "oci");
  CHECK(cloud_of("ocid1.instance.oc1.phx.abc", none) == "oci");     // OKE's bare OCID
  CHECK(cloud_of("kind://docker/kind/kind-worker", none).empty());  // not a cloud
  CHECK(cloud_of("", none).empty());
  CHECK(cloud_of("", {{"kubernetes.azure.com/agentpool", "gpu"}}) == "azure");
  CHECK(cloud_of("", {{"eks.amazonaws.com/nodegroup", "p5"}}) == "aws");
  CHECK(cloud_of("", {{"cloud.google.com/gke-nodepool", "a3"}}) == "gcp");
  CHECK(cloud_of("", {{"kubernetes.io/hostname", "dgx-01"}}).empty());
  // The ID says it before any label.
  CHECK(cloud_of("aws:///z/i-1", {{"kubernetes.azure.com/agentpool", "x"}}) == "aws");
}
