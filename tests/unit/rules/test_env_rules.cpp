// env-layer judgements: real recipes for the cases they hold, small inline YAML for the rest.

#include "recipe/load.hpp"
#include "rules/env/env_rules.hpp"

#include <doctest/doctest.h>

#include <filesystem>

using namespace icheck;
using report::Status;

namespace {

recipe::Deployment recipe_dgd(const std::string& relative) {
  auto files = recipe::load_recipe(std::filesystem::path(ICHECK_TEST_DATA) / "recipes" / relative,
                                   false);
  REQUIRE(files.has_value());
  REQUIRE(files->front().deployments.size() == 1);
  return files->front().deployments.front();
}

recipe::Deployment inline_dgd(const std::string& yaml) {
  auto file = recipe::parse_manifest(yaml, "inline.yaml");
  REQUIRE_FALSE(file.error.has_value());
  REQUIRE(file.deployments.size() == 1);
  return file.deployments.front();
}

const report::Finding* find(const std::vector<report::Finding>& findings, const std::string& name) {
  for (const auto& f : findings) {
    if (f.name == name) {
      return &f;
    }
  }
  return nullptr;
}

// A v1beta1 1P/1D deployment whose workers span two nodes, with `extra` lines in both
// main containers (indented for the container map).
std::string two_node_disagg(const std::string& env_lines, const std::string& container_extra = "") {
  std::string out = "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\n"
                    "metadata: {name: t}\nspec:\n  components:\n";
  for (const char* role : {"prefill", "decode"}) {
    out += std::string("    - name: ") + role + "\n      type: " + role +
           "\n      multinode: {nodeCount: 2}\n      podTemplate:\n        spec:\n"
           "          containers:\n            - name: main\n"
           "              resources: {limits: {nvidia.com/gpu: 8}}\n"
           "              env:\n" + env_lines + container_extra;
  }
  return out;
}

}  // namespace

TEST_CASE("UCX_TLS without RDMA on cross-node disagg with MNNVL intended: ok, said so") {
  const auto f = rules::env_findings(
      recipe_dgd("qwen3.8-2.4t-a95b-fp8/sglang/disagg-gb200-chat/deploy.yaml"));
  const auto* tls = find(f, "PrefillWorker UCX_TLS");
  REQUIRE(tls);
  CHECK(tls->status == Status::ok);
  CHECK(tls->detail == "UCX_TLS=cuda_copy,cuda_ipc,tcp: no RDMA, KV moves over multi-node "
                       "NVLink (cuda_ipc; MNNVL intended)");
  const auto* rdma = find(f, "Decode rdma-resource");
  REQUIRE(rdma);
  CHECK(rdma->status == Status::ok);
  CHECK(rdma->detail == "none requested; KV moves over multi-node NVLink (MNNVL intended)");
  CHECK(find(f, "Decode memlock")->status == Status::ok);
  const auto* mnnvl = find(f, "Decode UCX_CUDA_IPC_ENABLE_MNNVL");
  REQUIRE(mnnvl);
  CHECK(mnnvl->detail == "y");
  CHECK_FALSE(mnnvl->required);
}

TEST_CASE("UCX_TLS without RDMA on cross-node disagg, no MNNVL: fail") {
  const auto f = rules::env_findings(
      inline_dgd(two_node_disagg("                - {name: UCX_TLS, value: \"cuda_copy,cuda_ipc,tcp\"}\n")));
  const auto* tls = find(f, "decode UCX_TLS");
  REQUIRE(tls);
  CHECK(tls->status == Status::fail);
  CHECK(tls->detail == "UCX_TLS=cuda_copy,cuda_ipc,tcp has no RDMA transport (rc, dc, ib, srd; ud "
                       "alone has no one-sided RDMA): cross-node KV falls back to TCP");
  CHECK(tls->next == "set UCX_TLS: rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc (or remove UCX_TLS)");
}

TEST_CASE("the same UCX_TLS with UCX_CUDA_IPC_ENABLE_MNNVL=y but no IMEX channel still fails") {
  // The variable makes no IMEX channel (this was ok before issue 9: a false green).
  const auto f = rules::env_findings(inline_dgd(
      two_node_disagg("                - {name: UCX_TLS, value: \"cuda_copy,cuda_ipc,tcp\"}\n"
                      "                - {name: UCX_CUDA_IPC_ENABLE_MNNVL, value: \"y\"}\n")));
  CHECK(find(f, "prefill UCX_TLS")->status == Status::fail);
}

TEST_CASE("UCX_TLS without an active-message transport: fail, even on one node") {
  auto yaml = two_node_disagg("                - {name: UCX_TLS, value: \"cuda_copy,cuda_ipc\"}\n");
  const auto f = rules::env_findings(inline_dgd(yaml));
  const auto* tls = find(f, "prefill UCX_TLS");
  REQUIRE(tls);
  CHECK(tls->status == Status::fail);
  CHECK(tls->detail == "UCX_TLS=cuda_copy,cuda_ipc has no active-message transport (rc, ud, dc, "
                       "tcp, sm): NIXL's control channel cannot connect");
  CHECK(tls->next == "remove UCX_TLS, or add tcp (or rc) to it");
}

TEST_CASE("UCX_TLS=^cuda_ipc: NVLink IPC deliberately off") {
  const auto f = rules::env_findings(recipe_dgd("qwen3.5-122b/fp8/vllm/disagg-h200-agentic/deploy.yaml"));
  const auto* tls = find(f, "prefill UCX_TLS");
  REQUIRE(tls);
  CHECK(tls->status == Status::ok);
  CHECK(tls->detail == "UCX_TLS=^cuda_ipc: NVLink IPC deliberately off; same-node KV goes over RDMA");
  CHECK(find(f, "decode rdma-resource")->detail == "rdma/ib=1");
  CHECK(find(f, "decode memlock")->detail == "IPC_LOCK capability: RDMA memory can be pinned");
}

TEST_CASE("UCX_TLS with rc and cuda transports: ok") {
  const auto f = rules::env_findings(
      recipe_dgd("deepseek-v4/deepseek-v4-pro/vllm/disagg-h200-agentic/deploy.yaml"));
  const auto* tls = find(f, "VllmDecodeWorker UCX_TLS");
  REQUIRE(tls);
  CHECK(tls->status == Status::ok);
  CHECK(tls->detail == "UCX_TLS=rc_x,rc,cuda_copy,cuda_ipc: RDMA and active-message transports allowed");
  CHECK(find(f, "VllmDecodeWorker NCCL_IB_DISABLE")->detail == "0");
}

TEST_CASE("cross-node disagg with nothing set: UCX_TLS ok, no RDMA resource and no IPC_LOCK warn") {
  const auto f = rules::env_findings(recipe_dgd("llama-3-70b/vllm/disagg-multi-node/deploy.yaml"));
  const auto* tls = find(f, "VllmPrefillWorker UCX_TLS");
  REQUIRE(tls);
  CHECK(tls->status == Status::ok);
  CHECK(tls->detail == "unset: UCX auto-selects transports (the image or operator may set it)");
  const auto* rdma = find(f, "VllmDecodeWorker rdma-resource");
  REQUIRE(rdma);
  CHECK(rdma->status == Status::warn);
  CHECK(rdma->next == "services.VllmDecodeWorker.resources.limits.custom: {rdma/ib: \"8\"}");
  const auto* memlock = find(f, "VllmDecodeWorker memlock");
  REQUIRE(memlock);
  CHECK(memlock->status == Status::warn);
  CHECK(memlock->next ==
        "services.VllmDecodeWorker.extraPodSpec.mainContainer.securityContext.capabilities.add: "
        "[IPC_LOCK]");
  CHECK(find(f, "Frontend UCX_TLS") == nullptr);
  for (const auto& finding : f) {
    CHECK(finding.status != Status::fail);
  }
}

TEST_CASE("UCX_NET_DEVICES: bond device and all warn, named NICs ok") {
  auto bond = rules::env_findings(inline_dgd(
      two_node_disagg("                - {name: UCX_NET_DEVICES, value: \"mlx5_bond_0:1\"}\n")));
  CHECK(find(bond, "prefill UCX_NET_DEVICES")->status == Status::warn);
  auto all = rules::env_findings(inline_dgd(
      two_node_disagg("                - {name: UCX_NET_DEVICES, value: all}\n")));
  CHECK(find(all, "decode UCX_NET_DEVICES")->status == Status::warn);
  auto nscale = rules::env_findings(recipe_dgd("qwen3-32b/vllm/cloud-providers/deploy-nscale-ib.yaml"));
  const auto* devices = find(nscale, "DecodeWorker UCX_NET_DEVICES");
  REQUIRE(devices);
  CHECK(devices->status == Status::ok);
  CHECK(devices->detail == "UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_10:1,mlx5_11:1");
}

TEST_CASE("NCCL_IB_DISABLE=1 warns only on a worker spanning nodes") {
  auto multi = rules::env_findings(inline_dgd(
      two_node_disagg("                - {name: NCCL_IB_DISABLE, value: \"1\"}\n")));
  const auto* nccl = find(multi, "prefill NCCL_IB_DISABLE");
  REQUIRE(nccl);
  CHECK(nccl->status == Status::warn);
  CHECK(nccl->detail == "NCCL_IB_DISABLE=1 on a worker spanning 2 nodes: its NCCL traffic "
                        "between nodes goes over TCP sockets");
  // Single-node aggregated worker: listed only.
  auto single = rules::env_findings(recipe_dgd("nemotron-3-ultra/vllm/agg-h200-chat-mtp/deploy.yaml"));
  const auto* listed = find(single, "VllmWorker NCCL_IB_DISABLE");
  REQUIRE(listed);
  CHECK(listed->status == Status::ok);
  CHECK_FALSE(listed->required);
}

TEST_CASE("aggregated deployment: transport not exercised, no disagg-only judgements") {
  const auto f = rules::env_findings(recipe_dgd("glm-5.2/sglang/agg-h200-agentic/deploy.yaml"));
  const auto* transport = find(f, "glm52-agg-h200-agentic transport");
  REQUIRE(transport);
  CHECK(transport->status == Status::ok);
  CHECK_FALSE(transport->required);
  for (const auto& finding : f) {
    CHECK(finding.status == Status::ok);
    CHECK(finding.name.find("memlock") == std::string::npos);
    CHECK(finding.name.find("rdma-resource") == std::string::npos);
    CHECK(finding.name.find("UCX_TLS") == std::string::npos);
  }
}

TEST_CASE("every transport variable is listed per service with its value, secrets masked") {
  const auto r1 = rules::env_findings(recipe_dgd("deepseek-r1/vllm/disagg/deploy_hopper_16gpu.yaml"));
  const auto* gloo = find(r1, "decode GLOO_SOCKET_IFNAME");
  REQUIRE(gloo);
  CHECK(gloo->detail == "eth0");
  CHECK(gloo->layer == report::Layer::env);
  CHECK(find(r1, "decode NVIDIA_GDRCOPY") == nullptr);  // not a transport variable
  const auto f = rules::env_findings(inline_dgd(two_node_disagg(
      "                - {name: NIXL_ETCD_PASSWORD, value: hunter2}\n"
      "                - name: NCCL_IB_HCA\n"
      "                  valueFrom: {configMapKeyRef: {name: fabric, key: hca}}\n")));
  CHECK(find(f, "prefill NIXL_ETCD_PASSWORD")->detail == "***");
  CHECK(find(f, "prefill NCCL_IB_HCA")->detail == "from configMapKeyRef:fabric/hca");
}

TEST_CASE("kv transfer: LIBFABRIC on EFA as the recipes choose it, said with its source") {
  const auto inline_arg =
      rules::env_findings(recipe_dgd("nemotron-3.5-lightning/vllm/disagg-h100-dflash/deploy.yaml"));
  const auto* p = find(inline_arg, "VllmPrefillWorker kv transfer");
  REQUIRE(p);
  CHECK(p->status == Status::ok);
  CHECK(p->detail == "NIXL with LIBFABRIC; backend from --kv-transfer-config; kv_connector NixlConnector");
  CHECK_FALSE(p->required);
  const auto through_var =
      rules::env_findings(recipe_dgd("qwen3-32b/vllm/cloud-providers/deploy-aws-p5.48xlarge.yaml"));
  CHECK(find(through_var, "DecodeWorker kv transfer")->detail ==
        "NIXL with LIBFABRIC; backend from --kv-transfer-config; kv_connector NixlConnector; KVBM: LIBFABRIC");
  const auto none_set =
      rules::env_findings(recipe_dgd("qwen3-32b/vllm/cloud-providers/deploy-gke-roce.yaml"));
  CHECK(find(none_set, "DecodeWorker kv transfer")->detail ==
        "NIXL with UCX; backend not set in the recipe (the framework's default); kv_connector NixlConnector");
}

TEST_CASE("kv transfer: a TRT-LLM recipe on EFA that sets only KVBM's backend warns") {
  const auto f = rules::env_findings(
      recipe_dgd("qwen3-235b-a22b-fp8/trtllm/disagg/blackwell/deploy-aws-p6-b200.48xlarge.yaml"));
  for (const char* role : {"prefill", "decode"}) {
    CAPTURE(role);
    const std::string cap = role == std::string("prefill") ? "Prefill" : "Decode";
    const auto* b = find(f, cap + "Worker kv transfer");
    REQUIRE(b);
    CHECK(b->status == Status::warn);
    // Its engine config (a ConfigMap in the same manifest) leaves the transceiver on DEFAULT: NIXL.
    CHECK(b->detail == "NIXL with UCX; backend not set in the recipe (the framework's default); "
                       "cache_transceiver_config.backend: DEFAULT in /engine_configs/" + std::string(role) +
                       ".yaml from ConfigMap " + role + "-config; KVBM: LIBFABRIC on EFA "
                       "(vpc.amazonaws.com/efa): UCX on EFA has no GPUDirect on kernels >= 6.8");
    CHECK(b->next.starts_with("choose NIXL's LIBFABRIC backend for the KV transfer: TRTLLM_NIXL_KVCACHE_BACKEND=LIBFABRIC"));
  }
}

TEST_CASE("kv transfer: UCX on an EFA resource warns, prefill and decode without a common backend fail") {
  const std::string efa =
      "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: t}\nspec:\n"
      "  components:\n"
      "    - name: prefill\n      type: prefill\n      podTemplate:\n        spec:\n"
      "          containers:\n            - name: main\n"
      "              resources: {limits: {nvidia.com/gpu: 8, vpc.amazonaws.com/efa: 32}}\n"
      "              env: [{name: TRTLLM_NIXL_KVCACHE_BACKEND, value: LIBFABRIC}]\n"
      "    - name: decode\n      type: decode\n      podTemplate:\n        spec:\n"
      "          containers:\n            - name: main\n"
      "              resources: {limits: {nvidia.com/gpu: 8, vpc.amazonaws.com/efa: 32}}\n";
  const auto f = rules::env_findings(inline_dgd(efa));
  CHECK(find(f, "prefill kv transfer")->status == Status::ok);
  const auto* d = find(f, "decode kv transfer");
  REQUIRE(d);
  CHECK(d->status == Status::warn);
  CHECK(d->detail == "NIXL with UCX; backend not set in the recipe (the framework's default) on EFA (vpc.amazonaws.com/efa): "
                     "UCX on EFA has no GPUDirect on kernels >= 6.8");
  const auto* meet = find(f, "decode kv transfer meets prefill");
  REQUIRE(meet);
  CHECK(meet->status == Status::fail);
  CHECK(meet->detail == "prefill uses LIBFABRIC, decode uses UCX: NIXL has no backend in common, KV "
                        "cannot move between them");
  CHECK(find(rules::env_findings(recipe_dgd("qwen3-32b/vllm/cloud-providers/deploy-aws-p5.48xlarge.yaml")),
             "DecodeWorker kv transfer meets PrefillWorker") == nullptr);
}

TEST_CASE("kv transfer: TRT-LLM's cache transceiver on UCX bypasses NIXL, read from the recipe's ConfigMap") {
  // "NIXL/MOONCAKE do not support Mamba SSM state transfer": this recipe moves KV over UCX itself.
  const auto f = rules::env_findings(recipe_dgd("nemotron-3-super-fp8/trtllm/disagg/deploy.yaml"));
  const auto* p = find(f, "TrtllmPrefillWorker kv transfer");
  REQUIRE(p);
  CHECK(p->status == Status::ok);
  CHECK(p->detail == "UCX directly, not NIXL; cache_transceiver_config.backend: UCX in "
                     "/opt/dynamo/configs/config.yaml from ConfigMap nemotron-super-prefill-config");
  CHECK(find(f, "TrtllmDecodeWorker kv transfer meets TrtllmPrefillWorker") == nullptr);
}

TEST_CASE("kv transfer: prefill and decode that move KV differently cannot connect") {
  const std::string yaml =
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: engine}\ndata:\n"
      "  prefill.yaml: |\n    cache_transceiver_config:\n      backend: UCX\n"
      "  decode.yaml: |\n    cache_transceiver_config:\n      backend: DEFAULT\n"
      "---\n"
      "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: t}\nspec:\n"
      "  components:\n"
      "    - name: prefill\n      type: prefill\n      podTemplate:\n        spec:\n"
      "          volumes: [{name: cfg, configMap: {name: engine}}]\n"
      "          containers:\n            - name: main\n"
      "              args: [python3, -m, dynamo.trtllm, --extra-engine-args, /config/prefill.yaml]\n"
      "              volumeMounts: [{name: cfg, mountPath: /config/}]\n"
      "    - name: decode\n      type: decode\n      podTemplate:\n        spec:\n"
      "          volumes: [{name: cfg, configMap: {name: engine}}]\n"
      "          containers:\n            - name: main\n"
      "              env: [{name: ENGINE_ARGS, value: /etc/decode.yaml}]\n"
      "              args: [python3, -m, dynamo.trtllm, \"--extra-engine-args=$(ENGINE_ARGS)\"]\n"
      "              volumeMounts: [{name: cfg, mountPath: /etc/decode.yaml, subPath: decode.yaml}]\n";
  const auto f = rules::env_findings(inline_dgd(yaml));
  CHECK(find(f, "decode kv transfer")->detail ==
        "NIXL with UCX; backend not set in the recipe (the framework's default); cache_transceiver_config.backend: "
        "DEFAULT in /etc/decode.yaml from ConfigMap engine");
  const auto* meet = find(f, "decode kv transfer meets prefill");
  REQUIRE(meet);
  CHECK(meet->status == Status::fail);
  CHECK(meet->detail == "prefill moves KV with UCX directly, not NIXL (cache_transceiver_config.backend: UCX in "
                        "/config/prefill.yaml from ConfigMap engine), decode with NIXL with UCX "
                        "(cache_transceiver_config.backend: DEFAULT in /etc/decode.yaml from ConfigMap engine): "
                        "the two sides cannot connect");
}

TEST_CASE("same node is not NVLink: a single-node disagg worker without an RDMA resource fails") {
  // nemotron-3-super-fp8's SGLang disagg: 2 + 2 GPUs, one node, no rdma/* (was ok: "workers fit
  // one node (KV can use NVLink)", a false green: separate pods cannot use NVLink between them).
  auto dgd = recipe_dgd("nemotron-3-super-fp8/sglang/disagg/deploy.yaml");
  auto findings = rules::env_findings(dgd);  // find() points into it: it must outlive rdma
  const auto* rdma = find(findings, "decode rdma-resource");
  REQUIRE(rdma);
  CHECK(rdma->status == Status::fail);
  CHECK(rdma->detail.find("separate pods") != std::string::npos);
  CHECK(rdma->next.find("resources.limits.custom: {rdma/ib:") != std::string::npos);
  // Shared node IPC and PID namespaces are said explicitly: CUDA IPC may work, not verified.
  for (auto& s : dgd.services)
    s.host_ipc = s.host_pid = true;
  findings = rules::env_findings(dgd);
  rdma = find(findings, "decode rdma-resource");
  REQUIRE(rdma);
  CHECK(rdma->status == Status::warn);
  CHECK(rdma->detail.find("hostIPC and hostPID") != std::string::npos);
  // hostIPC alone is not enough (CUDA IPC handles do not cross PID namespaces).
  for (auto& s : dgd.services)
    s.host_pid = false;
  CHECK(find(rules::env_findings(dgd), "decode rdma-resource")->status == Status::fail);
  // With an RDMA resource: ok.
  for (auto& s : dgd.services)
    s.rdma_resources["rdma/ib"] = "2";
  CHECK(find(rules::env_findings(dgd), "decode rdma-resource")->status == Status::ok);
}

namespace {

// A disaggregated vLLM prefill + decode that fit one node (nodeCount 1), env lines as given.
std::string one_node_disagg(const std::string& env_lines) {
  std::string out = "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\n"
                    "metadata: {name: t}\nspec:\n  components:\n";
  for (const char* role : {"prefill", "decode"}) {
    out += std::string("    - name: ") + role + "\n      type: " + role +
           "\n      podTemplate:\n        spec:\n          containers:\n            - name: main\n"
           "              resources: {limits: {nvidia.com/gpu: 2}}\n"
           "              env:\n" +
           env_lines;
  }
  return out;
}

}  // namespace

TEST_CASE(
    "UCX_TLS without cuda_copy fails on a single-node disagg recipe too (TensorRT-LLM #18373)") {
  // Was ok: "active-message transport allowed (single node)"; VRAM then reads as host memory.
  const auto f = rules::env_findings(
      inline_dgd(one_node_disagg("                - {name: UCX_TLS, value: tcp}\n")));
  const auto* tls = find(f, "decode UCX_TLS");
  REQUIRE(tls);
  CHECK(tls->status == Status::fail);
  CHECK(
      tls->detail ==
      "UCX_TLS=tcp leaves out cuda_copy: UCX then takes the KV cache's GPU memory for host memory "
      "and NIXL cannot register it (NVIDIA/TensorRT-LLM #18373), on one node as across nodes");
  CHECK(tls->next == "set UCX_TLS: rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc (or remove UCX_TLS)");
  // Keeping cuda_copy on one node is ok, as before.
  const auto ok = rules::env_findings(
      inline_dgd(one_node_disagg("                - {name: UCX_TLS, value: \"tcp,cuda_copy\"}\n")));
  CHECK(find(ok, "decode UCX_TLS")->status == Status::ok);
  // KV that does not ride UCX (NIXL's LIBFABRIC backend) does not need UCX's cuda_copy.
  const auto fabric = rules::env_findings(inline_dgd(one_node_disagg(
      "                - {name: UCX_TLS, value: tcp}\n"
      "                - {name: TRTLLM_NIXL_KVCACHE_BACKEND, value: LIBFABRIC}\n")));
  CHECK(find(fabric, "decode UCX_TLS")->status == Status::ok);
}

TEST_CASE("UCX_TLS leaving out cuda_ipc on a recipe that means multi-node NVLink warns, without "
          "RDMA too it fails") {
  auto f =
      rules::env_findings(recipe_dgd("qwen3.8-2.4t-a95b-fp8/sglang/disagg-gb200-chat/deploy.yaml"));
  REQUIRE(find(f, "PrefillWorker UCX_TLS"));
  CHECK(find(f, "PrefillWorker UCX_TLS")->status == Status::ok);  // cuda_copy,cuda_ipc,tcp
  auto dgd = recipe_dgd("qwen3.8-2.4t-a95b-fp8/sglang/disagg-gb200-chat/deploy.yaml");
  for (auto& s : dgd.services)
    for (auto& v : s.env)
      if (v.name == "UCX_TLS")
        v.value = "rc,cuda_copy,tcp";
  f = rules::env_findings(dgd);
  CHECK(find(f, "PrefillWorker UCX_TLS")->status == Status::warn);
  CHECK(find(f, "PrefillWorker UCX_TLS")
            ->detail.find("leaves out cuda_ipc while multi-node NVLink") != std::string::npos);
  for (auto& s : dgd.services)
    for (auto& v : s.env)
      if (v.name == "UCX_TLS")
        v.value = "cuda_copy,tcp";
  f = rules::env_findings(dgd);
  CHECK(find(f, "PrefillWorker UCX_TLS")->status == Status::fail);
  CHECK(find(f, "PrefillWorker UCX_TLS")->detail.find("and no cuda_ipc for multi-node NVLink") !=
        std::string::npos);
}

TEST_CASE(
    "componentType main with the role flags in the script: judged as disagg, the type named") {
  auto files = recipe::load_recipe(std::filesystem::path(ICHECK_TEST_DATA) / "fixtures" / "recipe" /
                                       "sglang-disagg-componenttype-main.yaml",
                                   false);
  REQUIRE(files.has_value());
  const auto f = rules::env_findings(files->front().deployments.at(0));
  CHECK_FALSE(find(f, "dsv4-pro-disagg transport"));  // not "aggregated"
  const auto* role = find(f, "SglangWorkerB role");
  REQUIRE(role);
  CHECK(role->status == Status::warn);
  CHECK(role->required);
  CHECK(role->detail == "component type 'main' is not in Dynamo's vocabulary: read as prefill from "
                        "the engine's role flag --disaggregation-mode 'prefill'; the operator may "
                        "not deploy it as one");
  REQUIRE(find(f, "SglangWorkerB rdma-resource"));  // the disagg judgements ran
  CHECK(find(f, "SglangWorkerB rdma-resource")->status == Status::ok);
}

TEST_CASE("worker roles unknown: never aggregated-and-ok, what was seen is said") {
  auto files = recipe::load_recipe(std::filesystem::path(ICHECK_TEST_DATA) / "fixtures" / "recipe" /
                                       "sglang-componenttype-main-no-role.yaml",
                                   false);
  REQUIRE(files.has_value());
  const auto f = rules::env_findings(files->front().deployments.at(0));
  const auto* transport = find(f, "dsv4-pro-disagg transport");
  REQUIRE(transport);
  CHECK(transport->status == Status::warn);
  CHECK(transport->required);
  CHECK(transport->detail ==
        "worker roles unknown: SglangWorkerA (component type 'main'), SglangWorkerB (component "
        "type 'main'); cannot tell an aggregated deployment from a disaggregated one, the KV "
        "transport is not judged");
  const auto* role = find(f, "SglangWorkerA role");
  REQUIRE(role);
  CHECK(role->status == Status::warn);
  CHECK(role->detail.starts_with("role unknown: component type 'main' is not in Dynamo's"));
}

TEST_CASE("known component types give no role finding") {
  for (const char* path : {"glm-5.2/sglang/agg-h200-agentic/deploy.yaml",
                           "deepseek-v4/deepseek-v4-pro/sglang/disagg-b200/deploy.yaml"}) {
    CAPTURE(path);
    for (const auto& finding : rules::env_findings(recipe_dgd(path)))
      CHECK(finding.name.find(" role") == std::string::npos);
  }
}

TEST_CASE("kv transfer: a backend outside the vocabulary is a required warn, not an ok") {
  const auto dgd = inline_dgd(two_node_disagg(
      "                - {name: SGLANG_DISAGGREGATION_NIXL_BACKEND, value: HYPERLANE}\n"));
  const auto findings = rules::env_findings(dgd);
  const auto* f = find(findings, "prefill kv transfer");
  REQUIRE(f);
  CHECK(f->status == Status::warn);
  CHECK(f->required);
  CHECK(f->detail.find("backend HYPERLANE not in the vocabulary") != std::string::npos);
  const auto known = inline_dgd(two_node_disagg(
      "                - {name: SGLANG_DISAGGREGATION_NIXL_BACKEND, value: LIBFABRIC}\n"));
  const auto known_findings = rules::env_findings(known);
  const auto* ok = find(known_findings, "prefill kv transfer");
  REQUIRE(ok);
  CHECK(ok->status == Status::ok);
}

TEST_CASE(
    "SGLang's --config file in the recipe's ConfigMap says which engine moves KV (glm-5.2: nixl)") {
  const auto f = rules::env_findings(recipe_dgd("glm-5.2/sglang/disagg-h200-agentic/deploy.yaml"));
  for (const auto& finding : f) {
    if (!finding.name.ends_with(" kv transfer"))
      continue;
    CAPTURE(finding.name);
    CHECK(finding.status == Status::ok);
    CHECK(finding.detail.find("NIXL with UCX") == 0);
    CHECK(finding.detail.find("--disaggregation-transfer-backend nixl") != std::string::npos);
  }
}

TEST_CASE("env: a backend variable vLLM does not read is said ignored, not listed ok "
          "(awsome-inference #72)") {
  auto dgd = inline_dgd(
      one_node_disagg("                - {name: NIXL_BACKEND, value: LIBFABRIC}\n"
                      "                - {name: VLLM_NIXL_KVCACHE_BACKEND, value: LIBFABRIC}\n"
                      "                - {name: NIXL_LOG_LEVEL, value: INFO}\n"));
  for (auto& s : dgd.services)
    s.args = {"python3", "-m", "dynamo.vllm"};
  const auto f = rules::env_findings(dgd);
  const auto* ignored = find(f, "decode VLLM_NIXL_KVCACHE_BACKEND");
  REQUIRE(ignored);
  CHECK(ignored->status == Status::warn);
  CHECK(ignored->required);  // LIBFABRIC was meant, UCX is what moves KV
  CHECK(ignored->detail.starts_with(
      "VLLM_NIXL_KVCACHE_BACKEND=LIBFABRIC is ignored: vLLM takes its NIXL backend "
      "only from --kv-transfer-config"));
  CHECK(find(f, "decode NIXL_BACKEND")->status == Status::warn);
  // A variable that chooses nothing is still only listed.
  CHECK(find(f, "decode NIXL_LOG_LEVEL")->status == Status::ok);
  // Naming the backend in use anyway: said, but optional.
  for (auto& s : dgd.services)
    for (auto& v : s.env)
      if (v.name == "NIXL_BACKEND")
        v.value = "UCX";
  const auto same = rules::env_findings(dgd);
  CHECK(find(same, "decode NIXL_BACKEND")->status == Status::warn);
  CHECK_FALSE(find(same, "decode NIXL_BACKEND")->required);
}
