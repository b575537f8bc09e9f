#include "outside/mask.hpp"

#include "outside/mask_shapes.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace icheck::outside {
namespace {

// NIXL_ETCD_AUTH, REDIS_PASS, --pass: the word as the name's last part, not BYPASS or AUTHOR.
bool ends_with_word(std::string_view up, std::string_view word) {
  if (!up.ends_with(word))
    return false;
  const std::size_t before = up.size() - word.size();
  return before == 0 || !std::isalnum(static_cast<unsigned char>(up[before - 1]));
}

// KEY anywhere, except the InfiniBand partition key's own settings (UCX_IB_PKEY, NCCL_IB_PKEY):
// a fabric setting the rows judge, not a credential. Any other PKEY (SSH_PKEY) stays secret.
bool has_key_word(std::string_view up) {
  if (up.ends_with("_IB_PKEY") && up.find("KEY") == up.size() - 3)
    return false;
  return up.find("KEY") != std::string_view::npos;
}

}  // namespace

bool looks_secret(std::string_view name) {
  const std::string up = text::upper(name);
  constexpr std::array<std::string_view, 6> words{"TOKEN",  "SECRET",     "PASSWORD",
                                                  "PASSWD", "CREDENTIAL", "AUTHORIZATION"};
  return std::any_of(words.begin(), words.end(),
                     [&](std::string_view w) { return up.find(w) != std::string::npos; }) ||
         has_key_word(up) || ends_with_word(up, "AUTH") || ends_with_word(up, "PASS");
}

std::string mask_secrets(std::string_view text) {
  using namespace shapes;
  // One shape's mask can complete another's: `token=<junk>` masked leaves a URL whose userinfo
  // now reads as one (found by fuzz_outside). Passes repeat until nothing changes (a few at
  // most), so masking what was masked changes nothing.
  std::string out(text);
  for (int pass = 0; pass < 4; ++pass) {
    auto next = mask_auth_schemes(mask_flag_words(mask_pairs(mask_userinfo(mask_pem(out)))));
    if (next == out)
      break;
    out = std::move(next);
  }
  return out;
}

std::string shown_value(std::string_view name, std::string_view value) {
  if (looks_secret(name) && !value.empty())
    return std::string(kMask);
  return mask_secrets(value);
}

}  // namespace icheck::outside
