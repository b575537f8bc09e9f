#pragma once
// A variable set to choose a NIXL backend that the worker's framework does not read
// (KvBackends::ignored): it must not read as if it chose something (aws-samples/awsome-inference
// #72: NIXL_BACKEND=LIBFABRIC and VLLM_NIXL_KVCACHE_BACKEND=LIBFABRIC on vLLM, KV stayed on UCX).

#include "report/model.hpp"
#include "rules/nixl/nixl_backend.hpp"

#include <string>

namespace icheck::rules {

// warn: "<VAR>=<value> is ignored: <framework> takes its NIXL backend only from <real>; KV moves
// with <path>"; required when the value names a backend the KV transfer does not use (what the
// variable meant did not happen), optional when it names the one in use anyway.
report::Finding ignored_var_finding(std::string name, report::Layer layer, const KvBackends& b,
                                    const IgnoredVar& v);

}  // namespace icheck::rules
