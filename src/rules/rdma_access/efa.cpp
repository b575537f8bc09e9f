// AWS EFA, its own fabric: not InfiniBand, not RoCE; libfabric's EFA provider (fi_info -p efa)
// is the cross-check that the image can drive the devices.
#include "rules/node/node_layers.hpp"

namespace icheck::rules::node {

std::vector<report::Finding> judge_efa(const NodeView& v) {
  using report::Layer;
  using report::Status;
  const auto& p = v.facts.platform;
  if (p.efa_devices.empty())
    return {};
  auto devices = name_range(p.efa_devices);
  if (!p.fi_info_efa)
    return {finding(Layer::rdma_access, "libfabric efa", Status::skipped,
                    "fi_info not in the image: cannot cross-check that libfabric opens " + devices,
                    "fi_info -p efa -t FI_EP_RDM (from an image with /opt/amazon/efa)", false)};
  if (*p.fi_info_efa)
    return {finding(Layer::rdma_access, "libfabric efa", Status::ok,
                    "fi_info -p efa lists the EFA provider for " + devices)};
  std::string why = p.fi_info_error.empty() ? "" : " (" + p.fi_info_error + ")";
  return {finding(Layer::rdma_access, "libfabric efa", Status::fail,
                  devices + " present but fi_info -p efa finds no EFA provider" + why +
                      ": NIXL's LIBFABRIC backend cannot use EFA",
                  "request vpc.amazonaws.com/efa in the worker's resources.limits and use an image "
                  "with the EFA "
                  "libfabric (/opt/amazon/efa, Dynamo's AWS EFA image)")};
}

}  // namespace icheck::rules::node
