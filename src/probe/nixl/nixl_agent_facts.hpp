#pragma once
// What the image's own NIXL said when a fresh python3 process asked nixl._api (the nixl_agent
// section, nixl_agent_script.hpp): the plugins it lists and whether an agent could create each
// KV network backend. Pure data and its parser.

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::probe {

struct NixlAgentProbe {
  bool section = false;              // the fragment ran (absent from older or cut output)
  bool python = false;               // python3 is in the image
  bool complete = false;             // the script printed its end line
  std::string skipped;               // nixl._api not importable or different
  std::string error;                 // no agent started, or the process died or timed out
  std::vector<std::string> plugins;  // what NIXL lists, in its order
  // "UCX" -> "" (created) or NIXL's error ("nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND");
  // a backend NIXL does not list, or that was not tried, is absent.
  std::map<std::string, std::string> backends;
  std::vector<std::string> log_errors;  // NIXL's own glog error lines ("E0421 ... ] ...")

  bool answered() const { return complete && skipped.empty() && error.empty(); }
  bool lists(std::string_view plugin) const;
};

// The section's body; found: it ran with python3 (rc not absent).
NixlAgentProbe parse_nixl_agent(std::string_view body, bool found, int rc, bool timed_out);

}  // namespace icheck::probe
