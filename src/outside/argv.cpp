#include "outside/argv.hpp"

#include <array>
#include <string_view>

namespace icheck::outside {
namespace {

// --client-certificate goes with --client-key: one without the other authenticates nobody.
constexpr std::array<std::string_view, 5> kCredentialFlags{"--token", "--password", "--username",
                                                           "--client-key", "--client-certificate"};

enum class Match { none, with_value, value_follows };

Match credential_flag(std::string_view word) {
  for (const auto flag : kCredentialFlags) {
    if (word == flag)
      return Match::value_follows;
    if (word.starts_with(flag) && word.size() > flag.size() && word[flag.size()] == '=')
      return Match::with_value;
  }
  return Match::none;
}

} // namespace

std::vector<std::string> printable_argv(const std::vector<std::string>& argv) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == "--") { // the remote command: not kubectl's flags
      out.insert(out.end(), argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
      break;
    }
    const Match m = credential_flag(argv[i]);
    if (m == Match::value_follows)
      ++i;
    if (m == Match::none)
      out.push_back(argv[i]);
  }
  return out;
}

} // namespace icheck::outside
