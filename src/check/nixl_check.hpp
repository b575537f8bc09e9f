#pragma once
#include "check/options.hpp"
#include "report/model.hpp"
#include "rules/pair/pairing.hpp"
#include "util/expected.hpp"

namespace icheck::check {

struct PodRun;

// `nixl`: the NIXL install in every worker pod, the next transfer command for this
// deployment, and with --transfer that test itself.
Expected<report::Report> check_nixl(const Options& options);

// The nixl findings of every probed pod, the transfer plan (as next commands or, with
// --transfer, as a judged test) — shared with `all`.
void judge_nixl_pods(PodRun& run, const Options& options, report::Report& report);

// The probed pods as the transfer test's pair candidates, in run.probed order (unparsed pods
// left out): `node` and `all` judge the same pairs' paths (add_pair_link_findings).
std::vector<rules::PairCandidate> pair_candidates(const PodRun& run);

}  // namespace icheck::check
