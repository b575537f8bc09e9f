#pragma once
// The colours of statuses and verdicts on a terminal (ANSI SGR parameters).

#include "report/model.hpp"

#include <string>

namespace icheck::report {

inline std::string status_sgr(Status s) {
  switch (s) {
  case Status::ok:
    return "32";
  case Status::warn:
    return "33";
  case Status::fail:
    return "31;1";
  case Status::skipped:
    return "36";
  }
  return "";
}

inline std::string verdict_sgr(VerdictStatus v) {
  switch (v) {
  case VerdictStatus::confirmed:
  case VerdictStatus::surface_ok:
    return "32;1";
  case VerdictStatus::unconfirmed:
  case VerdictStatus::interrupted:
    return "33;1";
  case VerdictStatus::blocked:
  case VerdictStatus::error:
    return "31;1";
  }
  return "";
}

}  // namespace icheck::report
