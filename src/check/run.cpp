#include "check/run.hpp"

#include "check/node_check.hpp"

namespace icheck::check {

Expected<report::Report> run_mode(const Options& options) {
  if (options.mode == "node") {
    return check_node(options);
  }
  return Error{"`" + options.mode + "` is not yet implemented"};
}

}  // namespace icheck::check
