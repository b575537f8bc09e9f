// The one table of versions with known KV-transfer trouble, and how the nixl and ucx layers
// judge the versions the probes read against it.
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

}  // namespace

TEST_CASE("known trouble: every row has a range and a public source") {
  for (const auto& row : rules::known_trouble()) {
    CAPTURE(row.what);
    CHECK_FALSE(row.source.empty());
    CHECK(row.source.find('#') != std::string_view::npos);  // owner/repo #N
    CHECK_FALSE(rules::troubles(row.package, row.from == "0" ? "0.1" : row.from).empty());
    CHECK(rules::troubles(row.package, row.below).empty());
  }
}

TEST_CASE("known trouble: ranges by dotted numbers, wheel names either spelling, nixl rows for "
          "every NIXL") {
  CHECK(rules::troubles("ucx", "1.16.0").size() == 1);
  CHECK(rules::troubles("ucx", "1.19.0").empty());
  CHECK(rules::troubles("ucx", "1.20.0").empty());
  CHECK(rules::troubles("nixl", "0.10.0").size() == 1);
  CHECK(rules::troubles("nixl_cu12", "0.10.0").size() ==
        1);  // a nixl row applies to every NIXL wheel
  CHECK(rules::troubles("nixl", "0.9.1").empty());
  CHECK(rules::troubles("nixl", "0.10.1").empty());
  CHECK(rules::troubles("nixl_cu13", "1.0.0").size() == 1);
  CHECK(rules::troubles("nixl-cu13", "1.0.0").size() == 1);
  CHECK(rules::troubles("nixl_cu12", "1.0.0").empty());
  CHECK(rules::troubles("nixl", "unknown").empty());
}

TEST_CASE("nixl rules: NIXL 0.10.0 is a known issue (vllm #35799), a version outside every row "
          "gives none") {
  auto out = rules::judge_nixl(with_version("nixl-cu12", "0.10.0"), {});
  const auto* f = find(out, "known issue");
  REQUIRE(f);
  CHECK(f->status == Status::warn);
  CHECK(f->required);
  CHECK(f->detail.starts_with("NIXL 0.10.0: NIXL 0.10.0 changed UCX transport selection"));
  CHECK(f->detail.ends_with("(vllm-project/vllm #35799)"));
  CHECK(f->next == "use NIXL 0.10.1 or later (or earlier than 0.10.0)");
  out = rules::judge_nixl(with_version("nixl_cu13", "1.0.0"), {});
  CHECK(find(out, "known issue")->detail.ends_with("(ai-dynamo/nixl #1628)"));
  CHECK(find(rules::judge_nixl(with_version("nixl_cu13", "1.3.2"), {}), "known issue") == nullptr);
  // The UCX a versions file records is judged too.
  auto ucx = with_version("", "1.3.2");
  ucx.versions.ucx = "1.18.0";
  CHECK(find(rules::judge_nixl(ucx, {}), "known issue")
            ->detail.starts_with("UCX 1.18.0 < 1.19: NIXL requires UCP"));
}
