#include "check/run.hpp"

#include "check/all_check.hpp"
#include "check/env_check.hpp"
#include "check/env_live_check.hpp"
#include "check/nixl_check.hpp"
#include "check/node_check.hpp"

namespace icheck::check {

Expected<report::Report> run_mode(const Options& options) {
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
  return Error{"unknown mode `" + options.mode + "`"};
}

}  // namespace icheck::check
