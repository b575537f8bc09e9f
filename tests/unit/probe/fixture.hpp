#pragma once
// Reads a fixture and drops its first line ("# source: ..."), which is provenance, not output.

#include <fstream>
#include <sstream>
#include <string>

namespace icheck::probe::test {

inline std::string raw_file(const std::string& rel) {
  std::ifstream in(std::string(ICHECK_TEST_DATA) + "/fixtures/" + rel, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string fixture(const std::string& rel) {
  auto all = raw_file(rel);
  auto nl = all.find('\n');
  return nl == std::string::npos ? std::string() : all.substr(nl + 1);
}

}  // namespace icheck::probe::test
