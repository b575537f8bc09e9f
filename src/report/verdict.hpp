#pragma once
#include "report/model.hpp"

namespace icheck::report {

// Derives the consolidated verdict from every target's findings (DESIGN.md, "Output contract").
Verdict decide(const Report& report);

}  // namespace icheck::report
