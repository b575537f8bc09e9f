#pragma once
// The known-trouble rows applied to a recipe's services (each one's manifest facts) and to its
// prefill/decode service pairs: a finding per hit, its id "<service>/<check>". Pure.

#include "recipe/model.hpp"
#include "report/model.hpp"

#include <vector>

namespace icheck::rules::known {

std::vector<report::Finding> service_findings(const recipe::Deployment& dgd);

}  // namespace icheck::rules::known
