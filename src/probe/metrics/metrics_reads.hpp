#pragma once
// The metrics reader's output (metrics_script.hpp) as typed reads: which tool read, and per
// endpoint its two reads, each the page's kept samples with the pod's clock, or why it failed.
// Pure.

#include "probe/metrics/metrics_endpoints.hpp"
#include "probe/metrics/prometheus_text.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::probe {

struct MetricsRead {
  bool ok = false;
  std::optional<double> time;  // the pod's clock when the page answered (unix seconds)
  Exposition page;             // ok: the kept samples
  std::string error;           // not ok: why ("ConnectionRefusedError: [Errno 111] ...")
};

struct EndpointReads {
  MetricsEndpoint endpoint;
  MetricsRead first, second;
};

struct MetricsReads {
  std::string reader;                    // python3 | curl; "" when neither is in the image
  bool complete = false;                 // the reader's final marker arrived
  std::vector<EndpointReads> endpoints;  // same order as asked
};

MetricsReads parse_metrics_reads(std::string_view raw,
                                 const std::vector<MetricsEndpoint>& endpoints);

}  // namespace icheck::probe
