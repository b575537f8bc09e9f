#pragma once
// What env mode read from a deployment, typed for -o json/yaml, and its one-line summary.

#include "recipe/model.hpp"

#include <boost/json/object.hpp>

#include <string>

namespace icheck::check {

// {name, apiVersion, disagg, crossNode, services[{name, role, replicas, nodeCount, gpus,
// rdmaResources{}}], env{service: {VAR: shown value}}} (transport variables only, masked).
boost::json::object env_facts(const recipe::Deployment& dgd);

// e.g. "v1beta1 disagg cross-node · 2 prefill ×8 GPU · 1 decode ×8 GPU ×2 nodes".
std::string env_summary(const recipe::Deployment& dgd);

}  // namespace icheck::check
