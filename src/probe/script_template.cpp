#include "probe/script_template.hpp"

#include "util/text.hpp"

namespace icheck::probe {

std::string fill_env_patterns(std::string_view script, std::string_view placeholder,
                              std::string_view patterns) {
  std::string out(script);
  if (auto at = out.find(placeholder); at != std::string::npos)
    out.replace(at, placeholder.size(), patterns);
  return out;
}

std::string fill_every(std::string_view script, std::string_view placeholder,
                       std::string_view value) {
  return text::replace_all(script, placeholder, value);
}

} // namespace icheck::probe
