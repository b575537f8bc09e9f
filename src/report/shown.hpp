#pragma once
// The one edge where outside text enters what is printed: render() passes the whole report
// through here, so every string (names, nodes, details, next commands, facts, errors, the
// verdict) is masked (outside/mask.hpp) and made safe for the output format
// (outside/text.hpp), including checks added later, without each check having to remember.

#include "report/model.hpp"

namespace icheck::report {

enum class Medium { terminal, document };

Report shown_report(const Report& report, Medium medium);
Verdict shown_verdict(const Verdict& verdict, Medium medium);

} // namespace icheck::report
