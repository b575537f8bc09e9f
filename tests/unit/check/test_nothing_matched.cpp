// When no worker pod matched: where they do run, said as next steps.
#include "check/nothing_matched.hpp"

#include <doctest/doctest.h>

using icheck::check::where_workers_are;

namespace {

icheck::kube::PodInfo worker(std::string ns, std::string dgd) {
  icheck::kube::PodInfo p;
  p.name = dgd + "-0-vllmdecodeworker-x";
  p.namespace_ = std::move(ns);
  p.dgd = std::move(dgd);
  return p;
}

const std::vector<icheck::kube::PodInfo> kCluster{
    worker("dynamo", "llama-70b-disagg"), worker("dynamo", "other-dgd"),
    worker("dynamo", "llama-70b-disagg"), worker("staging", "llama-70b-disagg")};

}  // namespace

TEST_CASE("an empty namespace names the namespaces and deployments that have workers") {
  CHECK(where_workers_are(kCluster, "default", "") ==
        std::vector<std::string>{"Dynamo worker pods run in namespace dynamo (llama-70b-disagg, "
                                 "other-dgd), staging (llama-70b-disagg): try -n dynamo, or -A"});
}

TEST_CASE("workers in the namespace itself: nothing to add (the selection's words say why)") {
  CHECK(where_workers_are(kCluster, "dynamo", "").empty());
}

TEST_CASE("a --deployment without workers lists the deployments that have them") {
  CHECK(where_workers_are(kCluster, "dynamo", "nosuch") ==
        std::vector<std::string>{
            "the deployments with worker pods in namespace dynamo: llama-70b-disagg, other-dgd"});
  CHECK(where_workers_are(kCluster, "default", "nosuch") ==
        std::vector<std::string>{"the deployments with worker pods: dynamo (llama-70b-disagg, "
                                 "other-dgd), staging (llama-70b-disagg)"});
}

TEST_CASE("a --deployment that runs in another namespace says which") {
  CHECK(where_workers_are(kCluster, "staging", "other-dgd") ==
        std::vector<std::string>{
            "deployment other-dgd has worker pods in namespace dynamo: try -n dynamo, or -A",
            "the deployments with worker pods in namespace staging: llama-70b-disagg"});
}

TEST_CASE("no workers anywhere the user can see is said, not left silent") {
  CHECK(where_workers_are({}, "default", "") ==
        std::vector<std::string>{"no namespace this user can list has Dynamo worker pods"});
}
