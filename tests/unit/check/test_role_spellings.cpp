// Every way Dynamo recipes and pods say a role, fed once as a recipe service and once as a
// running pod: both go through dynamo::classify_role and must agree.

#include "kube/pods.hpp"
#include "recipe/load.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>
#include <map>
#include <string>
#include <vector>

using namespace icheck;
using dynamo::Role;
namespace json = boost::json;

namespace {

struct Spelling {
  const char* what;
  std::string type; // componentType (v1alpha1) or type (v1beta1)
  std::string sub;
  std::string name;
  std::vector<std::string> command;
  std::vector<std::string> args;
  std::map<std::string, std::string> env;
  Role expected;
  bool v1beta1 = false;
};

json::array strings(const std::vector<std::string>& list) {
  json::array out;
  for (const auto& s : list)
    out.emplace_back(s);
  return out;
}

json::object container(const Spelling& s) {
  json::array env;
  for (const auto& [name, value] : s.env)
    env.push_back(json::object{{"name", name}, {"value", value}});
  return {
      {"name", "main"}, {"command", strings(s.command)}, {"args", strings(s.args)}, {"env", env}};
}

// JSON is YAML: the manifest goes through the recipe loader as written.
Role as_recipe(const Spelling& s) {
  json::object spec;
  if (s.v1beta1) {
    spec["components"] = json::array{
        json::object{{"name", s.name},
                     {"type", s.type},
                     {"podTemplate", {{"spec", {{"containers", json::array{container(s)}}}}}}}};
  } else {
    json::object service{{"componentType", s.type},
                         {"extraPodSpec", {{"mainContainer", container(s)}}}};
    if (!s.sub.empty())
      service["subComponentType"] = s.sub;
    spec["services"] = json::object{{s.name, service}};
  }
  const json::object dgd{{"apiVersion", s.v1beta1 ? "nvidia.com/v1beta1" : "nvidia.com/v1alpha1"},
                         {"kind", "DynamoGraphDeployment"},
                         {"metadata", {{"name", "dgd"}}},
                         {"spec", spec}};
  const auto file = recipe::parse_manifest(json::serialize(dgd), "inline.yaml");
  REQUIRE_FALSE(file.error.has_value());
  REQUIRE(file.deployments.size() == 1);
  REQUIRE(file.deployments.front().services.size() == 1);
  return file.deployments.front().services.front().role;
}

Role as_pod(const Spelling& s) {
  json::object labels{{kube::kDeploymentLabel, "dgd"}, {kube::kComponentLabel, s.name}};
  if (!s.type.empty())
    labels[kube::kComponentTypeLabel] = s.type;
  if (!s.sub.empty())
    labels[kube::kSubComponentTypeLabel] = s.sub;
  const json::object pod{
      {"kind", "Pod"},
      {"metadata", {{"name", "dgd-0"}, {"namespace", "dynamo"}, {"labels", labels}}},
      {"spec", {{"containers", json::array{container(s)}}}},
      {"status", {{"phase", "Running"}}}};
  auto pods = kube::parse_pods_json(json::serialize(pod), {});
  REQUIRE(pods.has_value());
  REQUIRE(pods->size() == 1);
  return pods->front().role;
}

const std::vector<std::string> kShell{"/bin/sh", "-c"};
const std::vector<std::string> kVllm{"python3", "-m", "dynamo.vllm"};

std::vector<Spelling> spellings() {
  return {
      {"subComponentType prefill", "worker", "prefill", "w", {}, {}, {}, Role::prefill},
      {"subComponentType decode", "worker", "decode", "w", {}, {}, {}, Role::decode},
      {"v1beta1 type prefill", "prefill", "", "p", {}, {}, {}, Role::prefill, true},
      {"v1beta1 type decode", "decode", "", "d", {}, {}, {}, Role::decode, true},
      {"v1beta1 type worker, flag in args",
       "worker",
       "",
       "w",
       kVllm,
       {"--disaggregation-mode", "decode"},
       {},
       Role::decode,
       true},
      {"args list",
       "worker",
       "",
       "w",
       kVllm,
       {"--disaggregation-mode", "prefill"},
       {},
       Role::prefill},
      {"= form, upper case",
       "worker",
       "",
       "w",
       kVllm,
       {"--disaggregation-mode=DECODE"},
       {},
       Role::decode},
      {"in command",
       "worker",
       "",
       "w",
       {"python3", "-m", "dynamo.sglang", "--disaggregation-mode", "Prefill"},
       {},
       {},
       Role::prefill},
      {"--is-prefill-worker", "worker", "", "w", kVllm, {"--is-prefill-worker"}, {}, Role::prefill},
      {"--is-decode-worker", "worker", "", "w", kVllm, {"--is-decode-worker"}, {}, Role::decode},
      {"quoted words",
       "worker",
       "",
       "w",
       kShell,
       {"python3 -m dynamo.vllm '--disaggregation-mode' \"decode\""},
       {},
       Role::decode},
      // qwen3-235b-a22b-fp8/trtllm/disagg/hopper/deploy.yaml's prefill args, as written
      {"multi-line sh -c script (TRT-LLM)",
       "worker",
       "",
       "w",
       kShell,
       {"python3 -m dynamo.trtllm \\\n  --model-path \"${MODEL_PATH}\" \\\n  --served-model-name "
        "\"Qwen/Qwen3-235B-A22B-FP8\" \\\n"
        "  --extra-engine-args \"${ENGINE_ARGS}\" \\\n  --disaggregation-mode prefill\n"},
       {{"MODEL_PATH", "Qwen/Qwen3-235B-A22B-FP8"},
        {"ENGINE_ARGS", "/engine_configs/prefill.yaml"}},
       Role::prefill},
      {"SGLang in one sh -c string",
       "worker",
       "",
       "w",
       kShell,
       {"ulimit -l unlimited && python3 -m dynamo.sglang --model-path m --disaggregation-mode "
        "decode "
        "--disaggregation-transfer-backend nixl"},
       {},
       Role::decode},
      {"value from ${VAR}",
       "worker",
       "",
       "w",
       kShell,
       {"python3 -m dynamo.trtllm \\\n  --disaggregation-mode ${MODE}"},
       {{"MODE", "decode"}},
       Role::decode},
      {"value from $VAR",
       "worker",
       "",
       "w",
       kShell,
       {"exec python3 -m dynamo.sglang --disaggregation-mode $MODE"},
       {{"MODE", "prefill"}},
       Role::prefill},
      {"value from $(VAR)",
       "worker",
       "",
       "w",
       kVllm,
       {"--disaggregation-mode", "$(MODE)"},
       {{"MODE", "decode"}},
       Role::decode},
      {"value from ${VAR:-default}",
       "worker",
       "",
       "w",
       kShell,
       {"python3 -m dynamo.vllm --disaggregation-mode=\"${MODE:-prefill}\""},
       {},
       Role::prefill},
      {"DYN_VLLM_DISAGGREGATION_MODE",
       "worker",
       "",
       "w",
       kVllm,
       {},
       {{"DYN_VLLM_DISAGGREGATION_MODE", "decode"}},
       Role::decode},
      {"DYN_TRTLLM_DISAGGREGATION_MODE",
       "worker",
       "",
       "w",
       {"python3", "-m", "dynamo.trtllm"},
       {},
       {{"DYN_TRTLLM_DISAGGREGATION_MODE", "prefill"}},
       Role::prefill},
      {"DYN_VLLM_IS_PREFILL_WORKER",
       "worker",
       "",
       "w",
       kVllm,
       {},
       {{"DYN_VLLM_IS_PREFILL_WORKER", "true"}},
       Role::prefill},
      {"trtllm-serve --server_role CONTEXT",
       "worker",
       "",
       "w",
       kShell,
       {"trtllm-serve m --backend pytorch --server_role CONTEXT"},
       {},
       Role::prefill},
      {"trtllm-serve --server_role generation",
       "worker",
       "",
       "w",
       {"trtllm-serve", "m", "--server_role", "generation"},
       {},
       {},
       Role::decode},
      {"backend without flag is aggregated whatever its name",
       "worker",
       "",
       "VllmPrefillWorker",
       kVllm,
       {"--model", "m"},
       {},
       Role::worker},
      {"--disaggregation-mode agg",
       "worker",
       "",
       "w",
       {"python3", "-m", "dynamo.trtllm"},
       {"--disaggregation-mode", "agg"},
       {},
       Role::worker},
      {"only the name tells", "worker", "", "VllmDecodeWorker", {}, {}, {}, Role::decode},
      {"frontend named like a prefill router",
       "frontend",
       "",
       "PrefillRouter",
       {},
       {},
       {},
       Role::frontend},
      {"planner", "planner", "", "Planner", {}, {}, {}, Role::planner},
      {"epp", "epp", "", "Epp", {}, {}, {}, Role::epp},
  };
}

} // namespace

TEST_CASE("each role spelling gives the same role as a recipe service and as a pod") {
  for (const auto& s : spellings()) {
    const std::string what = s.what;
    CAPTURE(what);
    CHECK(as_recipe(s) == s.expected);
    CHECK(as_pod(s) == s.expected);
  }
}
