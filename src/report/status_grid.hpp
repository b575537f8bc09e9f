#pragma once
// Many pods on one screen: a pods x layers grid of the worst status per layer, printed before
// the per-pod tables from kGridPods pods up, so the answer is on the first screen; the tables
// then show only the pods with something against the verdict (-o wide keeps them all). Several
// manifests (env) end with a files x statuses summary in the same spirit.

#include "report/model.hpp"
#include "report/pod_kinds.hpp"
#include "report/render.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace icheck::report {

inline constexpr std::size_t kGridPods = 2;

// The worst status of the target's findings at that layer (fail, warn, skipped, ok, in that
// order); nullopt when it has none there.
std::optional<Status> worst_at(const Target& target, Layer layer);

// Nothing on the target counts against the verdict: no fail, and every required finding ok
// (an optional warn, e.g. GDRCopy, still shows in the grid).
bool all_required_ok(const Target& target);

// Every finding ok, optional ones too: only such a pod is summed up as "every check ok"; one
// with an optional skipped or warn cell is named as such (a skipped cell is never "ok").
bool every_check_ok(const Target& target);

// "3 pods have every check ok and 2 every required check ok but an optional one skipped or warn
// (see the grid): their tables are left out (-o wide shows every table)", wrapped at `width`
// (0: one line); "" when none.
std::string left_out_line(std::size_t every_ok, std::size_t required_ok, std::size_t width = 0);

std::size_t pod_count(const Report& report);

// "24 pods, the worst status of each layer:", the grid, one row per pod. "" under kGridPods pods.
std::string status_grid(const Report& report, const RenderOptions& options);

// The default view's grid: "" under kGridPods pods or with one kind of pods (its table says it
// all); one row per pod when no two are alike; else one row per kind of pods alike: "64 pods of 2
// kinds, ...", PODS (how many) ROLE LAYERS..., in the order of their tables. Within the width.
std::string kinds_grid(const std::vector<PodKind>& kinds, const RenderOptions& options);

// "3 files:", then FILE STATUS OK WARN FAIL SKIPPED, one row per manifest; "" under two.
std::string file_summary(const Report& report, const RenderOptions& options);

}  // namespace icheck::report
