#pragma once
// Decoding one UTF-8 sequence (internal to outside/): RFC 3629 rules, so overlong forms,
// surrogates and code points past U+10FFFF count as invalid.

#include <cstddef>
#include <string_view>

namespace icheck::outside {

struct CodePoint {
  char32_t value = 0;
  std::size_t length = 0; // bytes taken; 0: the byte at `at` starts no valid sequence
};

CodePoint decode_at(std::string_view text, std::size_t at);

} // namespace icheck::outside
