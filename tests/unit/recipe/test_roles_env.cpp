// Roles from args and names, env precedence and valueFrom references, on small inline YAML.

#include "recipe/load.hpp"
#include "recipe/shape.hpp"

#include <doctest/doctest.h>

using namespace icheck;

namespace {

recipe::Deployment parse_one(const std::string& yaml) {
  auto file = recipe::parse_manifest(yaml, "inline.yaml");
  REQUIRE_FALSE(file.error.has_value());
  REQUIRE(file.deployments.size() == 1);
  return file.deployments.front();
}

}  // namespace

TEST_CASE("v1alpha1 worker roles from args when subComponentType is absent") {
  const auto dgd = parse_one(R"(apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata: {name: sgl}
spec:
  services:
    first:
      componentType: worker
      extraPodSpec: {mainContainer: {args: ["python3 -m dynamo.sglang --disaggregation-mode prefill"]}}
    second:
      componentType: worker
      extraPodSpec: {mainContainer: {command: [python3, -m, dynamo.sglang], args: [--disaggregation-mode=decode]}}
    third:
      componentType: worker
      extraPodSpec: {mainContainer: {args: ["python3 -m dynamo.vllm --is-prefill-worker"]}}
    prefill:
      componentType: worker
    agg:
      componentType: worker
      extraPodSpec: {mainContainer: {args: ["python3 -m dynamo.vllm --model m"]}}
    Frontend: {componentType: frontend}
)");
  REQUIRE(dgd.services.size() == 6);
  CHECK(dgd.services[0].role == dynamo::Role::prefill);
  CHECK(dgd.services[1].role == dynamo::Role::decode);
  CHECK(dgd.services[2].role == dynamo::Role::prefill);
  CHECK(dgd.services[3].role == dynamo::Role::prefill); // only the name tells
  CHECK(dgd.services[4].role == dynamo::Role::worker);
  CHECK(dgd.services[5].role == dynamo::Role::frontend);
}

TEST_CASE("component env overrides graph env, valueFrom is a reference, envFrom listed") {
  const auto dgd = parse_one(R"(apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata: {name: envs}
spec:
  env:
    - {name: UCX_TLS, value: "rc,tcp"}
    - {name: NCCL_DEBUG, value: WARN}
  components:
    - name: decode
      type: decode
      replicas: 3
      podTemplate:
        spec:
          containers:
            - name: sidecar
              env: [{name: UCX_TLS, value: sidecar-only}]
            - name: main
              env:
                - {name: UCX_TLS, value: "rc_x,cuda_copy"}
                - name: HF_TOKEN
                  valueFrom: {secretKeyRef: {name: hf, key: token}}
                - name: VLLM_NIXL_SIDE_CHANNEL_HOST
                  valueFrom: {fieldRef: {fieldPath: status.podIP}}
                - name: NIXL_CFG
                  valueFrom: {configMapKeyRef: {name: cfg, key: nixl}}
              envFrom: [{secretRef: {name: creds}}, {configMapRef: {name: common}}]
              resources: {limits: {nvidia.com/gpu: 2, rdma/shared_ib: 1, vpc.amazonaws.com/efa: 4}}
              securityContext: {privileged: true}
)");
  const auto& decode = dgd.services.at(0);
  CHECK(decode.replicas == 3);
  CHECK(decode.gpus == 2);
  CHECK(decode.privileged);
  CHECK_FALSE(decode.ipc_lock);
  CHECK(decode.rdma_resources.size() == 2);
  REQUIRE(decode.env.size() == 5);
  CHECK(decode.env[0].name == "UCX_TLS");
  CHECK(decode.env[0].value == "rc_x,cuda_copy");
  CHECK(decode.env[1].value == "WARN");
  CHECK(decode.env[2].value == "secretKeyRef:hf/token");
  CHECK(decode.env[2].is_reference);
  CHECK(decode.env[3].value == "fieldRef:status.podIP");
  CHECK(decode.env[4].value == "configMapKeyRef:cfg/nixl");
  CHECK(decode.env_from == std::vector<std::string>{"secretRef:creds", "configMapRef:common"});
}

TEST_CASE("MNNVL only through a claimed IMEX channel: pod claim + container claim, of the file's "
          "ComputeDomain") {
  auto dgd_with = [](const std::string& pod_claims, const std::string& cd) {
    return parse_one(cd + R"(apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata: {name: gb}
spec:
  components:
    - name: decode
      type: decode
      podTemplate:
        spec:
)" + pod_claims + R"(          containers:
            - name: main
              env: [{name: UCX_CUDA_IPC_ENABLE_MNNVL, value: "y"}, {name: NCCL_MNNVL_ENABLE, value: "1"}]
              resources: {claims: [{name: channel}]}
)");
  };
  const std::string cd =
      "apiVersion: resource.nvidia.com/v1beta1\nkind: ComputeDomain\nmetadata: {name: cd}\n"
      "spec: {numNodes: 0, channel: {resourceClaimTemplate: {name: cd-channel}}}\n---\n";
  const std::string claim =
      "          resourceClaims: [{name: channel, resourceClaimTemplateName: cd-channel}]\n";
  CHECK(recipe::mnnvl_intended(dgd_with(claim, cd)));
  CHECK(recipe::mnnvl_intended(dgd_with(claim, "")));    // the ComputeDomain made outside this file
  CHECK_FALSE(recipe::mnnvl_intended(dgd_with("", cd))); // env + a ComputeDomain no pod claims
  CHECK_FALSE(recipe::mnnvl_intended(dgd_with(
      "          resourceClaims: [{name: channel, resourceClaimTemplateName: other}]\n", cd)));
}

TEST_CASE("v1alpha1: spec.envs < service envs < mainContainer env, claims mark MNNVL") {
  const auto dgd = parse_one(R"(apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata: {name: layered}
spec:
  envs: [{name: NCCL_IB_DISABLE, value: "0"}, {name: UCX_LOG_LEVEL, value: warn}]
  services:
    w:
      componentType: worker
      subComponentType: decode
      multinode: {nodeCount: 2}
      envs: [{name: NCCL_IB_DISABLE, value: "1"}]
      resources: {limits: {gpu: "4", custom: {rdma/ib: "4"}}, claims: [{name: cd}]}
      extraPodSpec:
        mainContainer:
          env: [{name: UCX_LOG_LEVEL, value: debug}]
          securityContext: {capabilities: {add: [SYS_RESOURCE, IPC_LOCK]}}
)");
  const auto& w = dgd.services.at(0);
  CHECK(w.node_count == 2);
  CHECK(w.gpus == 4);
  CHECK(w.rdma_resources == std::map<std::string, std::string>{{"rdma/ib", "4"}});
  CHECK(w.ipc_lock);
  CHECK(w.resource_claims);
  CHECK(recipe::find_env(w, "NCCL_IB_DISABLE")->value == "1");
  CHECK(recipe::find_env(w, "UCX_LOG_LEVEL")->value == "debug");
  // `claims: [{name: cd}]` names no resourceClaims entry of the pod: a dangling name is no IMEX
  // channel (this expected MNNVL before issue 9).
  CHECK_FALSE(w.imex_channel);
  CHECK_FALSE(recipe::mnnvl_intended(dgd));
  CHECK(recipe::is_cross_node(dgd));
}
