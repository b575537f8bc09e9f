#include "rules/env/env_rules.hpp"

#include "dynamo/transport_vars.hpp"
#include "recipe/shape.hpp"
#include "rules/env/env_detail.hpp"
#include "rules/nixl/ignored_vars.hpp"

#include <set>

using icheck::report::Status;

namespace icheck::rules {

namespace detail {

report::Finding env_finding(const std::string& who, const std::string& check, Status status,
                            std::string detail, std::string next) {
  report::Finding f;
  f.name = who + " " + check;
  f.id = who + "/" + check;  // the service, then the check (check_id turns blanks into '-')
  f.layer = report::Layer::env;
  f.status = status;
  f.detail = std::move(detail);
  f.next = std::move(next);
  return f;
}

EnvContext env_context(const recipe::Deployment& dgd) {
  return {recipe::is_disagg(dgd), recipe::is_cross_node(dgd), recipe::mnnvl_intended(dgd),
          dgd.api_version == "nvidia.com/v1alpha1"};
}

std::optional<report::Finding> judge_var(const std::string& name, const recipe::Service& s,
                                         const EnvContext& ctx) {
  if (!recipe::is_worker(s)) return std::nullopt;
  if (name == dynamo::kNcclIbDisableVar)
    return judge_nccl_ib(s);
  if (!ctx.disagg) return std::nullopt;
  if (name == dynamo::kUcxTlsVar)
    return judge_ucx_tls(s, ctx);
  if (name == dynamo::kUcxNetDevicesVar)
    return judge_net_devices(s);
  return std::nullopt;
}

}  // namespace detail

namespace {

// Judged variables get their own finding; listing them too would say the same twice.
const std::set<std::string_view> judged{dynamo::kUcxTlsVar, dynamo::kUcxNetDevicesVar};

// A variable the framework does not read for its backend is said to be ignored, not listed ok.
bool said_ignored(const recipe::Service& s, const KvBackends& b, const recipe::EnvVar& var,
                  std::vector<report::Finding>& out) {
  for (const auto& v : b.ignored) {
    if (v.name != var.name)
      continue;
    out.push_back(ignored_var_finding(s.name + " " + v.name, report::Layer::env, b, v));
    return true;
  }
  return false;
}

void list_transport_vars(const recipe::Service& s, const std::set<std::string_view>& said,
                         std::vector<report::Finding>& out) {
  const auto backends = service_kv_backends(s);
  for (const auto& var : s.env) {
    if (!dynamo::is_transport_var(var.name) || said.contains(var.name)) {
      continue;
    }
    if (said_ignored(s, backends, var, out))
      continue;
    auto f = detail::env_finding(s, var.name, Status::ok, recipe::shown(var));
    f.required = false;
    out.push_back(std::move(f));
  }
}

template <class T>
void add(std::vector<report::Finding>& out, T&& finding) {
  if (finding) {
    out.push_back(std::move(*finding));
  }
}

void judge_worker(const recipe::Service& s, const detail::EnvContext& ctx,
                  std::vector<report::Finding>& out) {
  add(out, detail::judge_ucx_tls(s, ctx));
  add(out, detail::judge_net_devices(s));
  out.push_back(detail::judge_rdma_resource(s, ctx));
  out.push_back(detail::judge_memlock(s, ctx));
  out.push_back(detail::judge_backend(s));
}

// Every decode service against every prefill service: one KV transfer joins them.
void judge_pairs(const recipe::Deployment& dgd, std::vector<report::Finding>& out) {
  for (const auto& d : dgd.services) {
    if (d.role != dynamo::Role::decode) {
      continue;
    }
    for (const auto& p : dgd.services) {
      if (p.role == dynamo::Role::prefill) {
        add(out, detail::judge_backends_meet(p, d));
      }
    }
  }
}

}  // namespace

std::vector<report::Finding> env_findings(const recipe::Deployment& dgd) {
  const detail::EnvContext ctx = detail::env_context(dgd);
  std::vector<report::Finding> out;
  if (!ctx.disagg) {
    out.push_back(detail::judge_split(dgd));
  }
  for (const auto& s : dgd.services) {
    add(out, detail::judge_role(s));
    std::set<std::string_view> said;
    if (ctx.disagg && recipe::is_worker(s)) {
      judge_worker(s, ctx, out);
      said = judged;
    } else if (recipe::is_worker(s)) {
      if (auto tls = detail::judge_ucx_tls_single_node(s)) {
        out.push_back(std::move(*tls));
        said.insert(dynamo::kUcxTlsVar);
      }
    }
    if (recipe::is_worker(s)) {
      add(out, detail::judge_nccl_ib(s));
    }
    list_transport_vars(s, said, out);
  }
  if (ctx.disagg) {
    judge_pairs(dgd, out);
  }
  return out;
}

}  // namespace icheck::rules
