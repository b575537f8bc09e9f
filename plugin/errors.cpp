#include "errors.hpp"

#include "outside/mask.hpp"
#include "outside/text.hpp"

#include <iostream>

namespace icheck::plugin {

std::string shown(const std::string& text) {
  return outside::terminal_safe(outside::at_most(outside::mask_secrets(text)));
}

int print_error(const std::string& message) {
  const bool prefixed = message.rfind("error: ", 0) == 0 || message.rfind("Error", 0) == 0;
  std::cerr << (prefixed ? "" : "error: ") << shown(message) << "\n";
  return k_exit_unknown;
}

int print_usage_error(const std::string& message, const std::string& usage_of) {
  // Made terminal-safe piece by piece where it was worded: the tab before a "Did you mean
  // this?" suggestion is cobra's and stays one.
  std::cerr << "error: " << outside::mask_secrets(message) << "\n"
            << "See 'kubectl dynamo-icheck" << (usage_of.empty() ? "" : " " + usage_of)
            << " --help' for usage.\n";
  return k_exit_unknown;
}

}  // namespace icheck::plugin
