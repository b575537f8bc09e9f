// env pipeline: targets, facts and summary per manifest file; bad input to errors or exit 3.

#include "check/env_check.hpp"
#include "report/verdict.hpp"
#include "temp_dir.hpp"

#include <boost/json/serialize.hpp>
#include <doctest/doctest.h>

using namespace icheck;

namespace {

const std::filesystem::path recipes = std::filesystem::path(ICHECK_TEST_DATA) / "recipes";

}  // namespace

TEST_CASE("env on a folder of alternative manifests: one target per file") {
  auto report = check::check_env({recipes / "qwen3-32b/vllm/cloud-providers", false});
  REQUIRE(report.has_value());
  CHECK(report->mode == "env");
  REQUIRE(report->targets.size() == 5);
  CHECK(report->targets[0].name == "deploy-aks-ib.yaml");
  CHECK(report->targets[4].name == "deploy-nscale-ib.yaml");
  CHECK(report->targets[0].kind == report::TargetKind::manifest);
  CHECK(report->targets[0].summary ==
        "v1alpha1 disagg single-node · 1 decode ×4 GPU · 1 prefill ×4 GPU");
  CHECK(report->errors.empty());
  // Only the standing limitation of reading recipe text: no file lacked a deployment.
  REQUIRE(report->limitations.size() == 1);
  CHECK(report->limitations[0].rfind("recipe text only:", 0) == 0);
  CHECK_FALSE(report->transport_not_exercised);
}

TEST_CASE("env facts: the deployment's typed shape") {
  auto report = check::check_env({recipes / "deepseek-r1/vllm/disagg", false});
  REQUIRE(report.has_value());
  REQUIRE(report->targets.size() == 1);
  const auto& target = report->targets[0];
  CHECK(target.name == "deploy_hopper_16gpu.yaml");
  CHECK(target.summary ==
        "v1alpha1 disagg cross-node · 1 decode ×8 GPU ×2 nodes · 1 prefill ×8 GPU ×2 nodes");
  CHECK(boost::json::serialize(target.facts) ==
        R"({"name":"vllm-dsr1","apiVersion":"nvidia.com/v1alpha1","disagg":true,"crossNode":true,)"
        R"("services":[{"name":"Frontend","role":"frontend","replicas":1,"nodeCount":1,"gpus":0,"rdmaResources":{}},)"
        R"({"name":"decode","role":"decode","replicas":1,"nodeCount":2,"gpus":8,"rdmaResources":{"rdma/ib":"8"}},)"
        R"({"name":"prefill","role":"prefill","replicas":1,"nodeCount":2,"gpus":8,"rdmaResources":{"rdma/ib":"8"}}],)"
        R"("env":{"decode":{"GLOO_SOCKET_IFNAME":"eth0"},"prefill":{"GLOO_SOCKET_IFNAME":"eth0"}}})");
}

TEST_CASE("env on an aggregated recipe: transport not exercised, non-DGD files are limitations") {
  auto report = check::check_env({recipes / "llama-3-70b/vllm/agg", false});
  REQUIRE(report.has_value());
  REQUIRE(report->targets.size() == 1);
  CHECK(report->transport_not_exercised);
  REQUIRE(report->limitations.size() == 3);
  CHECK(report->limitations[0] == "deploy.yaml: aggregated deployment, the KV transport is not exercised");
  CHECK(report->limitations[1].starts_with("perf.yaml: no DynamoGraphDeployment (Job/"));
  CHECK(report->limitations[2].starts_with("recipe text only: "));
}

TEST_CASE("env: a broken file is an error and a target not checked, the others are checked") {
  test::TempDir dir;
  dir.write("a.yaml", "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\n"
                      "metadata: {name: one}\nspec: {components: [{name: w, type: worker}]}\n");
  dir.write("b.yaml", "key: [unclosed\n");
  auto report = check::check_env({dir.path(), false});
  REQUIRE(report.has_value());
  REQUIRE(report->targets.size() == 2);
  REQUIRE(report->errors.size() == 1);
  CHECK(report->errors[0].starts_with("b.yaml:2: YAML syntax error: "));
  const auto& broken = report->targets[1];
  CHECK(broken.name == "b.yaml");
  REQUIRE(broken.findings.size() == 1);
  CHECK(broken.findings[0].status == report::Status::skipped);
  CHECK(broken.findings[0].detail.starts_with("could not check: b.yaml:2: YAML syntax error: "));
  // Never surface-ok (exit 0) while a manifest could not be read.
  CHECK(report::decide(*report).status != report::VerdictStatus::surface_ok);
}

TEST_CASE("env: nothing checkable is an error (exit 3)") {
  auto missing = check::check_env({"/nonexistent/recipe", false});
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().message == "/nonexistent/recipe: no such file or directory");

  test::TempDir dir;
  const auto perf = dir.write("perf.yaml", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: bench}\n");
  auto no_dgd = check::check_env({perf, false});
  REQUIRE_FALSE(no_dgd.has_value());
  CHECK(no_dgd.error().message ==
        "no DynamoGraphDeployment could be checked; " + perf.generic_string() +
            ": no DynamoGraphDeployment (Job/bench), not checked");

  test::TempDir empty;
  CHECK_FALSE(check::check_env({empty.path(), false}).has_value());
}

TEST_CASE("env: several DGDs in one file are named file:dgd") {
  test::TempDir dir;
  const std::string dgd = "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\n"
                          "spec: {components: [{name: w, type: worker}]}\n";
  dir.write("two.yaml", dgd + "metadata: {name: one}\n---\n" + dgd + "metadata: {name: two}\n");
  auto report = check::check_env({dir.path(), false});
  REQUIRE(report.has_value());
  REQUIRE(report->targets.size() == 2);
  CHECK(report->targets[0].name == "two.yaml:one");
  CHECK(report->targets[1].name == "two.yaml:two");
}

TEST_CASE("env over every recipe folder: no errors, every DGD a target") {
  auto report = check::check_env({recipes, true});
  REQUIRE(report.has_value());
  CHECK(report->errors.empty());
  CHECK(report->targets.size() == 97);
}
