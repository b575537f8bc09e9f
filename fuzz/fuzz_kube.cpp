// What kubectl and the kubeconfig hand over: a kubeconfig, the pod list JSON, kubectl's stderr.
#include "fuzz_input.hpp"
#include "kube/kubeconfig.hpp"
#include "kube/kubectl_stderr.hpp"
#include "kube/pods.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = icheck::fuzz::text(data, size);
  (void)icheck::kube::parse_kubeconfig(input, "fuzz-kubeconfig");
  (void)icheck::kube::parse_pods_json(input, {});
  (void)icheck::kube::kubectl_messages(input);
  return 0;
}
