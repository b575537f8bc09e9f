#include "check/run.hpp"

#include "check/all_check.hpp"
#include "check/env_check.hpp"
#include "check/env_live_check.hpp"
#include "check/logs_check.hpp"
#include "check/nixl_check.hpp"
#include "check/node_check.hpp"
#include "check/stopped.hpp"

#include <iostream>

namespace icheck::check {
namespace {

Expected<report::Report> dispatch(const Options& options) {
  if (options.mode == "env") {
    return options.live ? check_env_live(options) : check_env({options.path, options.recursive});
  }
  if (options.mode == "node") {
    return check_node(options);
  }
  if (options.mode == "nixl") {
    return check_nixl(options);
  }
  if (options.mode == "all") {
    return check_all(options);
  }
  if (options.mode == "logs") {
    return check_logs(options.path, std::cin);
  }
  return Error{"unknown mode `" + options.mode + "`"};
}

}  // namespace

report::Report run_mode(const Options& options) {
  auto report = dispatch(options);
  if (report) {
    return std::move(*report);
  }
  report::Report nothing;
  nothing.mode = options.mode;
  return stopped(std::move(nothing), report.error());
}

}  // namespace icheck::check
