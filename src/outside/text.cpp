#include "outside/text.hpp"

#include "outside/utf8.hpp"

#include <cstdio>

namespace icheck::outside {
namespace {

std::string hex_escape(const char* form, unsigned value) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, form, value);
  return buffer;
}

// Code points a terminal acts on instead of showing: C0, DEL, C1 (CSI 0x9b, OSC 0x9d, ...),
// and the bidirectional overrides and isolates that reorder what is shown.
bool acts_on_terminal(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069);
}

std::string visible(char32_t c) {
  switch (c) {
  case '\n':
    return "\\n";
  case '\t':
    return "\\t";
  case '\r':
    return "\\r";
  default:
    break;
  }
  return c < 0x80 ? hex_escape("\\x%02x", c) : hex_escape("\\u%04x", c);
}

// Walks `text`: valid sequences go through `keep` (which appends them or their escape),
// each invalid byte becomes \xNN.
template <class Keep> std::string rewrite(std::string_view text, Keep keep) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_at(text, i);
    if (cp.length == 0) {
      out += hex_escape("\\x%02x", static_cast<unsigned char>(text[i]));
      ++i;
      continue;
    }
    keep(out, cp.value, text.substr(i, cp.length));
    i += cp.length;
  }
  return out;
}

} // namespace

std::string terminal_safe(std::string_view text) {
  return rewrite(text, [](std::string& out, char32_t c, std::string_view bytes) {
    if (acts_on_terminal(c)) {
      out += visible(c);
    } else {
      out += bytes;
    }
  });
}

std::string valid_utf8(std::string_view text) {
  return rewrite(text, [](std::string& out, char32_t, std::string_view bytes) { out += bytes; });
}

bool is_terminal_safe(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_at(text, i);
    if (cp.length == 0 || acts_on_terminal(cp.value))
      return false;
    i += cp.length;
  }
  return true;
}

std::string at_most(std::string_view text, std::size_t most) {
  if (text.size() <= most)
    return std::string(text);
  std::size_t cut = most;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
    --cut;  // not inside a multi-byte sequence
  return std::string(text.substr(0, cut)) + "… (" + std::to_string(text.size() - cut) +
         " more bytes)";
}

} // namespace icheck::outside
