#pragma once
// Many pods on one screen: a pods x layers grid of the worst status per layer, printed before
// the per-pod tables when there are more than kGridPods pods, so the answer is on the first
// screen; the tables then show only the pods with something that counts against the verdict (-o
// wide keeps them all).

#include "report/model.hpp"
#include "report/render.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace icheck::report {

inline constexpr std::size_t kGridPods = 20;

// The worst status of the target's findings at that layer (fail, warn, skipped, ok, in that
// order); nullopt when it has none there.
std::optional<Status> worst_at(const Target& target, Layer layer);

// Nothing on the target counts against the verdict: no fail, and every required finding ok
// (an optional warn or skip, e.g. GDRCopy, still shows in the grid). Only then may its table be
// left out.
bool all_required_ok(const Target& target);

std::size_t pod_count(const Report& report);

// "24 pods x 7 layers ...", the grid, one row per pod. "" with kGridPods pods or fewer.
std::string status_grid(const Report& report, const RenderOptions& options);

}  // namespace icheck::report
