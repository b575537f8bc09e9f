#include "report/model.hpp"

#include <algorithm>

namespace icheck::report {

std::string check_id(const Finding& f) {
  std::string id = f.id.empty() ? f.name : f.id;
  std::replace_if(
      id.begin(), id.end(), [](char c) { return c == ' ' || c == '\t'; }, '-');
  return id;
}

Status target_status(const Target& t) {
  if (t.findings.empty()) {
    return Status::skipped;
  }
  Status worst = Status::ok;
  for (const auto& f : t.findings) {
    if ((f.required || f.status == Status::fail) && severity(f.status) > severity(worst)) {
      worst = f.status;
    }
  }
  return worst;
}

int severity(Status s) {
  switch (s) {
  case Status::ok:
    return 0;
  case Status::skipped:
    return 1;
  case Status::warn:
    return 2;
  case Status::fail:
    return 3;
  }
  return 3;
}

std::string_view to_string(Status s) {
  switch (s) {
  case Status::ok:
    return "ok";
  case Status::warn:
    return "warn";
  case Status::fail:
    return "fail";
  case Status::skipped:
    return "skipped";
  }
  return "?";
}

std::string_view to_string(Layer l) {
  switch (l) {
  case Layer::env:
    return "env";
  case Layer::fabric:
    return "fabric";
  case Layer::rdma_access:
    return "rdma-access";
  case Layer::gpudirect:
    return "gpudirect";
  case Layer::nvlink:
    return "nvlink";
  case Layer::ucx:
    return "ucx";
  case Layer::nixl:
    return "nixl";
  }
  return "?";
}

std::string_view to_string(TargetKind k) {
  switch (k) {
  case TargetKind::pod:
    return "pod";
  case TargetKind::local:
    return "local";
  case TargetKind::manifest:
    return "manifest";
  case TargetKind::log:
    return "log";
  }
  return "?";
}

std::string_view to_string(VerdictStatus v) {
  switch (v) {
  case VerdictStatus::confirmed:
    return "confirmed";
  case VerdictStatus::surface_ok:
    return "surface-ok";
  case VerdictStatus::unconfirmed:
    return "unconfirmed";
  case VerdictStatus::blocked:
    return "blocked";
  case VerdictStatus::error:
    return "error";
  case VerdictStatus::interrupted:
    return "interrupted";
  }
  return "?";
}

int exit_code(VerdictStatus v) {
  switch (v) {
  case VerdictStatus::confirmed:
  case VerdictStatus::surface_ok:
    return 0;
  case VerdictStatus::unconfirmed:
    return 1;
  case VerdictStatus::blocked:
    return 2;
  case VerdictStatus::error:
  case VerdictStatus::interrupted:
    return 3;
  }
  return 3;
}

}  // namespace icheck::report
