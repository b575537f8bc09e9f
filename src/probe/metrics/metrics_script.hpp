#pragma once
// The KV-transfer metrics reader: one bounded exec per worker pod that reads each of the pod's
// metrics endpoints (metrics_endpoints.hpp) from 127.0.0.1 twice, `interval` apart, with the
// image's python3 (http.client: one GET, no redirect followed) or else curl (no -L). Only the
// families the KV judgement reads are printed (histogram buckets left out), each read in its
// own marked section (sections.hpp grammar, this run's nonce):
//   reader         "python3" | "curl"; rc=absent when the image has neither
//   readR-I        read R (1, 2) of endpoint I: "@t <unix time>" then the kept lines, or
//                  "@error <why>" with a non-zero rc
// Reads and writes nothing else in the pod.

#include "probe/metrics/metrics_endpoints.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace icheck::probe {

// Seconds between the two reads: long enough for a serving worker's counters to move, short
// enough to stay inside the probe pass.
constexpr std::chrono::milliseconds kMetricsInterval{3000};
// Each read's own bound (connect and body).
constexpr int kMetricsReadSeconds = 5;

std::string metrics_reader_script(const std::vector<MetricsEndpoint>& endpoints,
                                  std::chrono::milliseconds interval, const std::string& nonce);

// The most the reader can take: both rounds of reads and the interval, plus a margin.
std::chrono::milliseconds metrics_reader_budget(std::size_t endpoints,
                                                std::chrono::milliseconds interval);

}  // namespace icheck::probe
