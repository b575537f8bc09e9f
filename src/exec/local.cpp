#include "exec/local.hpp"

namespace icheck::exec {

ChildSpec local_spec(const std::string& script, std::chrono::milliseconds deadline,
                     std::size_t output_cap) {
  ChildSpec spec;
  spec.argv = {kLocalShell, "-c", script};
  spec.deadline = deadline;
  spec.output_cap = output_cap;
  return spec;
}

ChildResult run_local(const std::string& script, std::chrono::milliseconds deadline,
                      std::size_t output_cap) {
  return run_child(local_spec(script, deadline, output_cap));
}

}  // namespace icheck::exec
