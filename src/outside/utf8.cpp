#include "outside/utf8.hpp"

namespace icheck::outside {
namespace {

struct Lead {
  std::size_t length;
  char32_t bits;
  char32_t min; // below this the sequence is overlong
};

Lead lead_of(unsigned char byte) {
  if (byte < 0x80)
    return {1, byte, 0};
  if ((byte & 0xE0) == 0xC0)
    return {2, char32_t{byte} & 0x1F, 0x80};
  if ((byte & 0xF0) == 0xE0)
    return {3, char32_t{byte} & 0x0F, 0x800};
  if ((byte & 0xF8) == 0xF0)
    return {4, char32_t{byte} & 0x07, 0x10000};
  return {0, 0, 0};
}

} // namespace

CodePoint decode_at(std::string_view text, std::size_t at) {
  const Lead lead = lead_of(static_cast<unsigned char>(text[at]));
  if (lead.length == 0 || text.size() - at < lead.length)
    return {};
  char32_t value = lead.bits;
  for (std::size_t i = 1; i < lead.length; ++i) {
    const auto byte = static_cast<unsigned char>(text[at + i]);
    if ((byte & 0xC0) != 0x80)
      return {};
    value = (value << 6) | (byte & 0x3F);
  }
  const bool surrogate = value >= 0xD800 && value <= 0xDFFF;
  if (value < lead.min || surrogate || value > 0x10FFFF)
    return {};
  return {value, lead.length};
}

} // namespace icheck::outside
