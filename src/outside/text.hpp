#pragma once
// Text that came from outside (pods, recipes, the cluster, argv) made safe to show
// (DESIGN.md "Everything printed is safe to print"). Two views of one string:
// - for a terminal (table, wide, stderr, the VERDICT line): no control character reaches it;
// - for a document (JSON, YAML): the text stays exact, only invalid UTF-8 is replaced, so
//   strict parsers accept it (the serializers escape control characters themselves).

#include <cstddef>
#include <string>
#include <string_view>

namespace icheck::outside {

// C0 controls, DEL, C1 controls and bidirectional overrides become visible escapes
// (\x1b, \n, \t, \u009b, \u202e); each byte that is not valid UTF-8 becomes \xNN.
std::string terminal_safe(std::string_view text);

// Valid UTF-8 kept byte for byte; each byte that is not valid UTF-8 becomes \xNN.
std::string valid_utf8(std::string_view text);

// True when the text would pass through terminal_safe unchanged.
bool is_terminal_safe(std::string_view text);

// An error or a limitation longer than this is cut: a line, not a file's worth of text.
inline constexpr std::size_t kMaxShownLine = 2000;

// The text whole when it fits in `most` bytes; else its first bytes up to a UTF-8 boundary and
// "… (N more bytes)". Apply after masking: a cut secret no longer looks like one.
std::string at_most(std::string_view text, std::size_t most = kMaxShownLine);

} // namespace icheck::outside
