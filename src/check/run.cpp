#include "check/run.hpp"

namespace icheck::check {

Expected<report::Report> run_mode(const Options& options) {
  return Error{"`" + options.mode + "` is not yet implemented"};
}

}  // namespace icheck::check
