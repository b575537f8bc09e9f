#include "kube/pods.hpp"

#include <doctest/doctest.h>
#include <fstream>
#include <sstream>

using namespace icheck::kube;
namespace dynamo = icheck::dynamo;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(ICHECK_TEST_DATA) + "/fixtures/kube/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<PodInfo> load(const std::string& name, ContainerChoice choice = {}) {
  auto pods = parse_pods_json(fixture(name), choice);
  REQUIRE(pods.has_value());
  return *pods;
}

std::vector<std::string> names_and_roles(const std::vector<PodInfo>& pods) {
  std::vector<std::string> out;
  for (const auto& pod : pods)
    out.push_back(pod.name + ":" + std::string(dynamo::role_name(pod.role)));
  return out;
}

const PodInfo& by_name(const std::vector<PodInfo>& pods, const std::string& name) {
  for (const auto& pod : pods) {
    if (pod.name == name)
      return pod;
  }
  FAIL("no pod " << name);
  return pods.front();
}

}  // namespace

TEST_CASE("v1alpha1-style labels: worker + sub-component-type / then args / then name") {
  const auto pods = load("v1alpha1_workers.json");
  // LegacyPrefill runs `python3 -m dynamo.vllm` with no role flag: an aggregated worker whatever
  // its name, the rule a recipe service follows too (llama-3-70b/vllm/agg's VllmPrefillWorker).
  CHECK(names_and_roles(pods) ==
        std::vector<std::string>{"llm-frontend-7d9f:frontend", "llm-vllmprefillworker-0:prefill",
                                 "llm-vllmdecodeworker-0:decode", "llm-legacyprefill-0:worker",
                                 "llm-backend-0:decode", "llm-vllmworker-0:prefill",
                                 "llm-agg-0:worker"});
  const auto& prefill = by_name(pods, "llm-vllmprefillworker-0");
  CHECK(prefill.namespace_ == "dynamo");
  CHECK(prefill.node == "gpu-a01");
  CHECK(prefill.pod_ip == "10.1.0.11");
  CHECK(prefill.dgd == "llm");
  CHECK(prefill.component == "VllmPrefillWorker");
  CHECK(prefill.container == "main");
  CHECK(prefill.container_note == "");
  CHECK(prefill.containers == std::vector<std::string>{"main"});
  CHECK(prefill.probeable());
  CHECK(prefill.skip_detail() == "");
}

TEST_CASE("v1beta1-style labels: component-type prefill/decode - planner and epp excluded") {
  const auto pods = load("v1beta1_workers.json");
  CHECK(names_and_roles(pods) == std::vector<std::string>{"ds-planner-0:planner",
                                                          "ds-prefill-0:prefill",
                                                          "ds-decode-0:decode", "ds-epp-0:epp"});
  CHECK(names_and_roles(select_targets(pods, false)) ==
        std::vector<std::string>{"ds-prefill-0:prefill", "ds-decode-0:decode"});
  CHECK(select_targets(pods, true).size() == 4);
}

TEST_CASE("the frontend is not a target unless --all-components") {
  const auto pods = load("v1alpha1_workers.json");
  const auto targets = select_targets(pods, false);
  CHECK(targets.size() == 6);
  CHECK(targets.front().name == "llm-vllmprefillworker-0");
}

TEST_CASE("role rule on labels alone") {
  using Labels = std::map<std::string, std::string>;
  using dynamo::Role;
  CHECK(pod_role(Labels{{kComponentTypeLabel, "worker"}, {kSubComponentTypeLabel, "decode"}}, {}) ==
        Role::decode);
  CHECK(pod_role(Labels{{kComponentTypeLabel, "prefill"}, {kSubComponentTypeLabel, "decode"}},
                 {}) == Role::prefill);
  CHECK(pod_role(Labels{{kComponentTypeLabel, "worker"}, {kComponentLabel, "DecodeWorker"}}, {}) ==
        Role::decode);
  CHECK(pod_role(Labels{{kComponentTypeLabel, "worker"}}, {"--disaggregation-mode=prefill"}) ==
        Role::prefill);
  CHECK(pod_role(Labels{{kComponentTypeLabel, "frontend"}, {kComponentLabel, "PrefillRouter"}},
                 {}) == Role::frontend);
  CHECK(pod_role(Labels{}, {}) == Role::unknown);
  CHECK(dynamo::is_worker(Role::worker));
  CHECK_FALSE(dynamo::is_worker(Role::frontend));
  CHECK_FALSE(dynamo::is_worker(Role::unknown));
}

TEST_CASE("Grove multinode: leader and worker cliques are both targets") {
  const auto targets = select_targets(load("grove_multinode.json"), false);
  REQUIRE(targets.size() == 2);
  CHECK(targets[1].node == "gpu-c02");
  CHECK(targets[1].role == dynamo::Role::decode);
  CHECK(targets[0].command_line == std::vector<std::string>{"python3", "-m", "dynamo.vllm"});
  CHECK(targets[0].multinode == dynamo::MultinodePart::leader);
  CHECK(targets[1].multinode == dynamo::MultinodePart::worker);
  CHECK(targets[0].multinode_group == "big-0-trtllmworker");
  CHECK(targets[1].multinode_group == "big-0-trtllmworker");
  CHECK(multinode_leader(targets, targets[1]) == &targets[0]);
  CHECK(multinode_leader(targets, targets[0]) == nullptr);       // a leader has none
  CHECK(multinode_leader({targets[1]}, targets[1]) == nullptr);  // its leader not selected
}

TEST_CASE("LeaderWorkerSet multinode: worker-index 0 leads, the group is the leader pod's name") {
  const auto targets = select_targets(load("lws_multinode.json"), false);
  REQUIRE(targets.size() == 4);
  const auto& leader = by_name(targets, "big-vllmdecodeworker-0-0");
  const auto& worker = by_name(targets, "big-vllmdecodeworker-0-0-1");
  CHECK(leader.multinode == dynamo::MultinodePart::leader);
  CHECK(worker.multinode == dynamo::MultinodePart::worker);
  CHECK(leader.multinode_group == "big-vllmdecodeworker-0-0");
  CHECK(worker.multinode_group == leader.name);
  CHECK(multinode_leader(targets, worker) == &leader);
  const auto& orphan = by_name(targets, "big-vllmdecodeworker-0-1-1");  // group 1: no leader here
  CHECK(orphan.multinode == dynamo::MultinodePart::worker);
  CHECK(multinode_leader(targets, orphan) == nullptr);
  const auto& unnamed = by_name(targets, "stray-1");  // no set name: the group cannot be told
  CHECK(unnamed.multinode == dynamo::MultinodePart::worker);
  CHECK(unnamed.multinode_group.empty());
  CHECK(multinode_leader(targets, unnamed) == nullptr);
}

TEST_CASE("pods that cannot be probed say why and what to run next") {
  const auto pods = load("not_probeable.json");
  const auto& unschedulable = by_name(pods, "nb-prefill-1");
  CHECK_FALSE(unschedulable.probeable());
  CHECK(unschedulable.not_running_reason == "Pending: Unschedulable");
  CHECK(unschedulable.skip_detail() == "not probed: Pending: Unschedulable");
  CHECK(unschedulable.next_step() == "kubectl describe pod nb-prefill-1 -n dynamo");
  CHECK(by_name(pods, "nb-prefill-2").not_running_reason == "ContainerCreating");
  const auto& not_ready = by_name(pods, "nb-decode-1");
  CHECK(not_ready.container_running);
  CHECK_FALSE(not_ready.probeable());
  CHECK(not_ready.not_running_reason == "not Ready");
  const auto& crash = by_name(pods, "nb-decode-2");
  CHECK_FALSE(crash.container_running);
  CHECK(crash.not_running_reason == "CrashLoopBackOff");
  CHECK(crash.next_step() == "kubectl logs nb-decode-2 -n dynamo -c main --previous");
  CHECK(crash.restart_count == 7);  // its previous container's log is worth reading
  CHECK(not_ready.restart_count == 0);
  CHECK(unschedulable.restart_count == 0);  // no container status at all
  CHECK(by_name(pods, "nb-job-0").not_running_reason == "Succeeded");
}

TEST_CASE("no main container: the first one / said in a note") {
  const auto pods = load("not_probeable.json");
  const auto& pod = by_name(pods, "nb-decode-3");
  CHECK(pod.container == "vllm");
  CHECK(pod.container_note == "no container main; using first container vllm");
  CHECK(pod.probeable());
}

TEST_CASE("-c naming a container the pod lacks: not probeable / no fallback") {
  const auto pods = load("not_probeable.json", ContainerChoice{"main", true});
  const auto& pod = by_name(pods, "nb-decode-3");
  CHECK(pod.container == "");
  CHECK_FALSE(pod.probeable());
  CHECK(pod.not_running_reason == "container \"main\" not found in pod");
  CHECK(pod.next_step() ==
        "kubectl get pod nb-decode-3 -n dynamo -o jsonpath='{.spec.containers[*].name}'");
  const auto with_sidecar = load("not_probeable.json", ContainerChoice{"sidecar", true});
  const auto& side = by_name(with_sidecar, "nb-decode-3");
  CHECK(side.container == "sidecar");
  CHECK(side.probeable());
}

TEST_CASE("a single Pod document (get pods NAME -o json) parses as one pod") {
  const auto pods = load("single_pod.json");
  REQUIRE(pods.size() == 1);
  CHECK(pods[0].name == "llm-vllmdecodeworker-0");
  CHECK(pods[0].role == dynamo::Role::decode);
}

TEST_CASE("malformed documents are errors / an empty List is not") {
  CHECK(parse_pods_json("{\"kind\":\"List\",\"items\":[]}", {})->empty());
  CHECK(parse_pods_json("[1]", {}).error().message ==
        "kubectl get pods returned JSON that is not an object");
  CHECK(parse_pods_json("{\"kind\":\"Service\"}", {}).error().message ==
        "kubectl get pods returned kind \"Service\", expected List, PodList or Pod");
  CHECK_FALSE(parse_pods_json("{\"kind\":", {}).has_value());
}

TEST_CASE("selectors for the target kinds") {
  CHECK(default_selector() == "nvidia.com/dynamo-graph-deployment-name");
  CHECK(deployment_selector("llm") == "nvidia.com/dynamo-graph-deployment-name=llm");
  CHECK(deployments_selector({"a"}) == "nvidia.com/dynamo-graph-deployment-name=a");
  CHECK(deployments_selector({"a", "b"}) == "nvidia.com/dynamo-graph-deployment-name in (a,b)");
}

TEST_CASE("hostIPC and hostPID are read from the pod spec (absent or not a bool: false)") {
  const auto pods = parse_pods_json(
      R"({"kind":"List","items":[
        {"kind":"Pod","metadata":{"name":"shared"},
         "spec":{"hostIPC":true,"hostPID":true,"containers":[{"name":"main"}]}},
        {"kind":"Pod","metadata":{"name":"ipc-only"},
         "spec":{"hostIPC":true,"hostPID":"true","containers":[{"name":"main"}]}},
        {"kind":"Pod","metadata":{"name":"plain"},"spec":{"containers":[{"name":"main"}]}}]})",
      {});
  REQUIRE(pods.has_value());
  CHECK(by_name(*pods, "shared").host_ipc);
  CHECK(by_name(*pods, "shared").host_pid);
  CHECK(by_name(*pods, "ipc-only").host_ipc);
  CHECK_FALSE(by_name(*pods, "ipc-only").host_pid);
  CHECK_FALSE(by_name(*pods, "plain").host_ipc);
  CHECK_FALSE(by_name(*pods, "plain").host_pid);
}
