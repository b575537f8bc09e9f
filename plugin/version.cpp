#include "version.hpp"

#include "build_info.hpp"

#include <CLI/Version.hpp>
#include <boost/version.hpp>

namespace icheck::plugin {

namespace {

std::string boost_version() {
  return std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) +
         "." + std::to_string(BOOST_VERSION % 100);
}

std::string compiler() {
#if defined(__clang__)
  return "clang " __clang_version__;
#elif defined(__GNUC__)
  return "g++ " __VERSION__;
#else
  return "unknown compiler";
#endif
}

}  // namespace

std::string version_line() {
  return std::string("dynamo-icheck ") + build::k_version + " (commit " + build::k_commit + ", " +
         build::k_platform + ")";
}

std::string version_text() {
  std::string text = version_line() + "\n";
  text += std::string("libraries: Boost ") + boost_version() + ", yaml-cpp " + build::k_yaml_cpp +
          ", CLI11 " + CLI11_VERSION + ", libstdc++ " + std::to_string(__GLIBCXX__) + "\n";
  text += "built with " + compiler() + ", linked " + build::k_linkage + "\n";
  return text;
}

}  // namespace icheck::plugin
