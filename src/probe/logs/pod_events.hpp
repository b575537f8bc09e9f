#pragma once
// A pod's events (core/v1 EventList from GET events?fieldSelector=involvedObject.name=POD, or
// `kubectl get events -o json`), as rows judge them (docs/knowledge.md `event.*`). Pure.

#include "util/expected.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace icheck::probe {

struct PodEvent {
  std::string type;     // Normal | Warning
  std::string reason;   // FailedCreatePodSandBox, FailedPrepareDynamicResources, BackOff, ...
  std::string message;  // as the component wrote it, secrets masked, cut at 4 KiB
  long count = 1;       // how often it happened (series.count on newer events)
  std::string time;     // the last time it happened: lastTimestamp, series, eventTime, first
  std::string object;   // the involved object's kind/name, e.g. "Pod/w-0"
};

// The events of an EventList; malformed JSON is an error naming it.
Expected<std::vector<PodEvent>> parse_events_json(std::string_view json);

}  // namespace icheck::probe
