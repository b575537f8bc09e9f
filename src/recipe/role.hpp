#pragma once
// A service's role, decided the way the Dynamo operator does.

#include "recipe/model.hpp"

#include <string>

namespace icheck::recipe {

// In order: type/subComponentType prefill|decode; the backend's own flag in the args
// (--disaggregation-mode prefill|decode, also with '=', --is-prefill-worker,
// --is-decode-worker); args that launch a backend (dynamo.vllm, ...) without such a flag mean
// an aggregated "worker"; a service name containing "prefill" or "decode" when the args do
// not tell (older recipes only name them); else the component type (worker, frontend, ...).
std::string resolve_role(const Service& service);

}  // namespace icheck::recipe
