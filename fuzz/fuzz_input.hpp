#pragma once
// libFuzzer's bytes as the text a parser is given.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace icheck::fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

} // namespace icheck::fuzz
