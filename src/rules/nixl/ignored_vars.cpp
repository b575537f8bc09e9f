#include "rules/nixl/ignored_vars.hpp"

#include "dynamo/transport_vars.hpp"
#include "util/text.hpp"

namespace icheck::rules {

report::Finding ignored_var_finding(std::string name, report::Layer layer, const KvBackends& b,
                                    const IgnoredVar& v) {
  report::Finding f;
  f.name = std::move(name);
  f.layer = layer;
  f.status = report::Status::warn;
  f.detail = dynamo::setting(v.name, v.value) +
             " is ignored: " + std::string(dynamo::framework_name(b.framework)) +
             " takes its NIXL backend only from " + v.real + "; KV moves with " + b.path() +
             " (aws-samples/awsome-inference #72)";
  f.next = "set the backend where " + std::string(dynamo::framework_name(b.framework)) +
           " reads it (" + v.real + ") and remove " + v.name;
  f.required = !(b.via_nixl() && b.uses(text::upper(text::trim(v.value))));
  return f;
}

}  // namespace icheck::rules
