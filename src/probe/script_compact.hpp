#pragma once
// The probe as it is sent: its comment lines and indentation dropped. The script travels in the
// exec request's URL (stream/request.hpp), whose request line servers and proxies cap, commonly
// at 64 KiB; the comments are for the reader of the source, not for the pod. Pure.

#include <string>
#include <string_view>

namespace icheck::probe {

// `script` (POSIX sh) without the lines that hold only a comment or nothing, and without the
// leading blanks of the lines that start outside a quoted string. A line inside a quoted string
// (a python program in '...', a multi-line "...") is kept byte for byte. Here-documents are not
// understood: the probe scripts have none (a test holds them to it).
std::string compact_script(std::string_view script);

}  // namespace icheck::probe
