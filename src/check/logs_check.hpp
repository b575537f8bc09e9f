#pragma once
// logs mode: saved worker logs (support bundles, CI artifacts, `kubectl logs > f`) and saved
// events lists (`kubectl get events -o json > f`) judged offline against the same signature rows
// as the pods' own (rules/logs/signatures.hpp), with the same output contract: one target per
// file, each finding in its row's layer, one verdict. A file with no known signature has no
// finding and no ok: the report says a log only shows what it says.

#include "check/options.hpp"
#include "report/model.hpp"
#include "util/expected.hpp"

#include <istream>
#include <string>

namespace icheck::check {

inline constexpr std::size_t kMaxSavedLog = 64u << 20;  // per file
inline constexpr std::size_t kMaxSavedLogs = 2000;      // files under one folder

// One saved file's text judged (no I/O): a core/v1 EventList (JSON) is judged as events, any
// other text line by line; "previous" in the name marks a previous container's log.
report::Target judge_saved_log(const std::string& name, const std::string& text);

// PATH is a file, a folder (every regular file below it, in name order) or "-" (`in`).
// An error (exit 3) only when nothing could be read at all.
Expected<report::Report> check_logs(const std::string& path, std::istream& in);

}  // namespace icheck::check
