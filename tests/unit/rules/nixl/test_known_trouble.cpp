// The versions the nixl and ucx layers read, judged by the knowledge rows
// (src/knowledge/data/trouble_core.yaml, the table that was known_trouble.cpp).
#include "rules/nixl/known_trouble.hpp"
#include "rules/nixl/nixl_rules.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using namespace icheck;
using report::Status;

namespace {

const report::Finding* find(const std::vector<report::Finding>& v, const std::string& name) {
  auto it = std::find_if(v.begin(), v.end(), [&](const auto& f) { return f.name == name; });
  return it == v.end() ? nullptr : &*it;
}

probe::NixlFacts with_version(const std::string& package, const std::string& version) {
  probe::NixlFacts f;
  f.probed = true;
  f.plugin_dirs.push_back({"/opt/dynamo/nixl/plugins", "", "opt-dynamo", {"UCX"}});
  f.versions.nixl = version;
  f.versions.nixl_package = package;
  return f;
}

std::size_t hits(const std::string& package, const std::string& version) {
  return rules::known_trouble(rules::nixl_version_facts(with_version(package, version))).size();
}

}  // namespace

TEST_CASE("known trouble: NIXL's wheel and versions file into version facts") {
  auto facts = rules::nixl_version_facts(with_version("nixl_cu13", "1.0.0"));
  CHECK(facts.get("version.nixl") == "1.0.0");
  CHECK(facts.get("version.nixl-cu13") == "1.0.0");
  CHECK_FALSE(facts.get("version.ucx"));
  auto file = with_version("", "0.9.1");
  file.versions.ucx = "1.18.0";
  facts = rules::nixl_version_facts(file);
  CHECK(facts.get("version.ucx") == "1.18.0");
  CHECK(facts.values().size() == 2);  // version.nixl, version.ucx
}

TEST_CASE("known trouble: ranges by dotted numbers, wheel names either spelling, the nixl rows "
          "for every NIXL") {
  CHECK(hits("nixl", "0.10.0") == 1);
  CHECK(hits("nixl_cu12", "0.10.0") == 1);  // the NIXL version, whichever wheel holds it
  CHECK(hits("nixl", "0.9.1") == 0);
  CHECK(hits("nixl", "0.10.1") == 0);
  // nixl-cu13 1.0.0 holds only while UCX_MODULE_DIR is unset: the versions alone leave the
  // environment unknown, and unknown never concludes.
  CHECK(hits("nixl_cu13", "1.0.0") == 0);
  CHECK(hits("nixl-cu13", "1.0.0") == 0);
  auto facts = rules::nixl_version_facts(with_version("nixl-cu13", "1.0.0"));
  facts.complete("env.");
  CHECK(rules::known_trouble(facts).size() == 1);
  facts.set("env.UCX_MODULE_DIR",
            "/opt/dynamo/venv/lib/python3.12/site-packages/nixl_cu13.libs/ucx");
  CHECK(rules::known_trouble(facts).empty());
  CHECK(hits("nixl_cu12", "1.0.0") == 0);
  CHECK(hits("nixl", "unknown") == 0);
}

TEST_CASE("nixl rules: NIXL 0.10.0 is a known issue (vllm #35799), a version outside every row "
          "gives none") {
  auto out = rules::judge_nixl(with_version("nixl-cu12", "0.10.0"), {});
  const auto* f = find(out, "known-issue");
  REQUIRE(f);
  CHECK(f->layer == report::Layer::nixl);
  CHECK(f->status == Status::warn);
  CHECK(f->required);
  CHECK(f->detail.starts_with("NIXL 0.10.0: NIXL 0.10.0 changed UCX transport selection"));
  CHECK(f->detail.ends_with("(vllm-project/vllm #35799)"));
  CHECK(f->next ==
        "no NIXL release is known to fix it (vllm #35799 is open; the bound is the reported "
        "version): use a NIXL earlier than 0.10.0, as vLLM pins (vllm PR #35495)");
  // nixl-cu13 1.0.0's row needs UCX_MODULE_DIR unset: the versions alone do not say it (the pod's
  // whole environment does, rules/known/stack_facts.cpp).
  out = rules::judge_nixl(with_version("nixl_cu13", "1.0.0"), {});
  CHECK(find(out, "known-issue") == nullptr);
  out = rules::judge_nixl(with_version("nixl_cu13", "1.3.2"), {});
  CHECK(find(out, "known-issue") == nullptr);
  // The UCX a versions file records is judged too, in the ucx layer.
  auto ucx = with_version("", "1.3.2");
  ucx.versions.ucx = "1.18.0";
  const auto judged = rules::judge_nixl(ucx, {});
  const auto* v = find(judged, "version");
  REQUIRE(v);
  CHECK(v->layer == report::Layer::ucx);
  CHECK(v->detail.starts_with("UCX 1.18.0 < 1.19: NIXL requires UCP"));
}
