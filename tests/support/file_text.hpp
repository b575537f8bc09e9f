#pragma once
// What a test wrote into a temporary FILE (tmpfile()), from its start.

#include <cstdio>
#include <string>

namespace icheck::test {

inline std::string file_text(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  char buf[256];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, file)) > 0)
    text.append(buf, n);
  return text;
}

}  // namespace icheck::test
