// Every next runnable as printed in pod mode: the rules' own next steps (copied from src/rules)
// filled with the pod's place.
#include "check/next_commands.hpp"

#include <doctest/doctest.h>

using icheck::check::PodPlace;
using icheck::check::runnable_next;

namespace {

const PodPlace kPlace{
    {"kubectl", "--context=prod-a"}, "llama-decode-0", "dynamo", "main", "gpu-a04"};
const std::string kExec = "kubectl --context=prod-a exec llama-decode-0 -n dynamo -c main -- ";

}  // namespace

TEST_CASE("a bare in-pod command runs through kubectl exec in the pod") {
  CHECK(runnable_next("nvidia-smi nvlink -s", kPlace) == kExec + "nvidia-smi nvlink -s");
  CHECK(runnable_next("ibstat", kPlace) == kExec + "ibstat");
  CHECK(runnable_next("grep 'Max locked memory' /proc/self/limits", kPlace) ==
        kExec + "grep 'Max locked memory' /proc/self/limits");
}

TEST_CASE("a pipe runs its first command in the pod, the filter here, a reason becomes a comment") {
  CHECK(
      runnable_next("ucx_info -d | grep -A4 'Memory domain: mlx5' (memory types must include cuda)",
                    kPlace) ==
      kExec + "ucx_info -d | grep -A4 'Memory domain: mlx5'  # (memory types must include cuda)");
  CHECK(
      runnable_next("ibv_devinfo -l (package ibverbs-utils), from the worker image or a debug "
                    "container",
                    kPlace) ==
      kExec +
          "ibv_devinfo -l  # (package ibverbs-utils), from the worker image or a debug container");
}

TEST_CASE("'in the pod' is said by kubectl exec itself") {
  CHECK(
      runnable_next("ip -4 addr show dev ens0f0np0 in the pod; give it an IPv4 address", kPlace) ==
      kExec + "ip -4 addr show dev ens0f0np0  # give it an IPv4 address");
  CHECK(runnable_next("on the node as root: lspci -vvv | grep ACSCtl", kPlace) ==
        "on node gpu-a04 as root: lspci -vvv | grep ACSCtl");
}

TEST_CASE("a glob is expanded by the pod's shell, not this one") {
  CHECK(runnable_next("ls -l /sys/class/infiniband_verbs/*/ibdev (which HCA each uverbs opens)",
                      kPlace) ==
        kExec +
            "sh -c 'ls -l /sys/class/infiniband_verbs/*/ibdev'  # (which HCA each uverbs opens)");
}

TEST_CASE("prose after a command becomes a comment, commands before it stay commands") {
  CHECK(runnable_next("nvidia-smi nvlink -e (error counters); nvidia-smi nvlink -s", kPlace) ==
        kExec + "nvidia-smi nvlink -e; " + kExec + "nvidia-smi nvlink -s  # (error counters)");
  CHECK(runnable_next("nvidia-smi nvlink -s; check Fabric Manager (NVSwitch systems) and the "
                      "node's GPU health",
                      kPlace) == kExec + "nvidia-smi nvlink -s  # check Fabric Manager (NVSwitch "
                                         "systems) and the node's GPU health");
  CHECK(runnable_next("NVIDIA_DRIVER_CAPABILITIES must include utility (the toolkit mounts "
                      "nvidia-smi), then nvidia-smi topo -m",
                      kPlace) ==
        kExec +
            "nvidia-smi topo -m  # NVIDIA_DRIVER_CAPABILITIES must include utility (the toolkit "
            "mounts nvidia-smi), then");
  CHECK(runnable_next("under load: nvidia-smi -q -d PCIE (Link Width/Generation Current vs Max)",
                      kPlace) ==
        kExec + "nvidia-smi -q -d PCIE  # under load: (Link Width/Generation Current vs Max)");
}

TEST_CASE("known placeholders are filled, kubectl commands carry the user's context") {
  CHECK(runnable_next(
            "kubectl debug node/<node> -it --image=busybox -- ls /host/sys/class/infiniband",
            kPlace) == "kubectl --context=prod-a debug node/gpu-a04 -it --image=busybox -- ls "
                       "/host/sys/class/infiniband");
  CHECK(runnable_next("check the worker pods instead: kubectl dynamo-icheck node -n <namespace>",
                      kPlace) ==
        "check the worker pods instead: kubectl dynamo-icheck node -n dynamo");
  CHECK(runnable_next("kubectl logs <pod> -n <namespace>", kPlace) ==
        "kubectl --context=prod-a logs llama-decode-0 -n dynamo");
  CHECK(
      runnable_next("on the node: cat /sys/bus/pci/devices/<gpu>/iommu_group/type (identity is "
                    "passthrough)",
                    kPlace) ==
      "on node gpu-a04: cat /sys/bus/pci/devices/<gpu>/iommu_group/type (identity is passthrough)");
}

TEST_CASE("a kubectl command inside prose carries the user's context too") {
  // src/rules/rdma_access: the resource to request, and where to read its name
  CHECK(runnable_next("resources.limits[\"rdma/ib\"]: 1 (the rdma/* resource your RDMA device "
                      "plugin advertises: kubectl get node <node> -o "
                      "jsonpath='{.status.allocatable}')",
                      kPlace) ==
        "resources.limits[\"rdma/ib\"]: 1 (the rdma/* resource your RDMA device plugin "
        "advertises: kubectl --context=prod-a get node gpu-a04 -o "
        "jsonpath='{.status.allocatable}')");
  CHECK(runnable_next("see kubectl dynamo-icheck node -n <namespace>", kPlace) ==
        "see kubectl dynamo-icheck node -n dynamo");
}

TEST_CASE("prose and commands built with the flags already are left as they are") {
  CHECK(runnable_next("env: UCX_IB_GID_INDEX=3", kPlace) == "env: UCX_IB_GID_INDEX=3");
  const std::string built =
      "kubectl --context=prod-a exec -it p -n dynamo -c main -- nixlbench --etcd_endpoints x";
  CHECK(runnable_next(built, kPlace) == built);
  CHECK(runnable_next("kubectl auth can-i create pods/exec -n dynamo", kPlace) ==
        "kubectl --context=prod-a auth can-i create pods/exec -n dynamo");
}

TEST_CASE("an unscheduled pod keeps <node>: its node is not known") {
  PodPlace pending = kPlace;
  pending.node.clear();
  CHECK(runnable_next("kubectl get node <node> -o wide", pending) ==
        "kubectl --context=prod-a get node <node> -o wide");
}

TEST_CASE("plugin_command repeats this run's targets and cluster flags") {
  icheck::check::Options o;
  o.targets.deployment = "llama-70b";
  o.kube.namespace_ = "dynamo";
  o.kube.context = "prod a";
  CHECK(
      icheck::check::plugin_command("nixl --transfer", o) ==
      "kubectl dynamo-icheck nixl --transfer --deployment llama-70b -n dynamo --context 'prod a'");
  CHECK(icheck::check::plugin_command("nixl --transfer", {}) ==
        "kubectl dynamo-icheck nixl --transfer");
}

TEST_CASE("a kubectl command that prose goes on after runs as a command, the prose a comment") {
  // next steps of data rows (src/knowledge/data: signatures_ucx.yaml, signatures_k8s.yaml)
  CHECK(runnable_next("kubectl dynamo-icheck node -o wide lists the GIDs", kPlace) ==
        "kubectl dynamo-icheck node -o wide  # lists the GIDs");
  CHECK(runnable_next("fix the selectors; kubectl get node -o yaml shows the advertised rdma/ "
                      "resources",
                      kPlace) ==
        "kubectl --context=prod-a get node -o yaml  # fix the selectors; shows the advertised "
        "rdma/ resources");
  CHECK(runnable_next("kubectl get node -o yaml: the resource under allocatable", kPlace) ==
        "kubectl --context=prod-a get node -o yaml  # the resource under allocatable");
  CHECK(runnable_next("kubectl dynamo-icheck nixl", kPlace) == "kubectl dynamo-icheck nixl");
}
