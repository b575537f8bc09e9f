#pragma once
// Runs a POSIX script under a given shell ("dash", "busybox sh") on this machine and returns
// what it printed (stdout and stderr). Used by the probe tests and bench/probe_bench.cpp to run
// the embedded probe scripts for real; the plugin itself spawns processes only through exec/.

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace icheck::test {

// Whether the shell's program is installed (the tests skip a shell that is not).
inline bool shell_installed(const std::string& shell) {
  return std::system(
             ("command -v " + shell.substr(0, shell.find(' ')) + " >/dev/null 2>&1").c_str()) == 0;
}

// The shells the probe tests run a script under that this machine has: dash (Debian's /bin/sh)
// and busybox's ash (tools/deps.sh installs busybox), as the images the probe meets have them.
inline std::vector<std::string> installed_shells() {
  std::vector<std::string> out;
  for (std::string shell : {"dash", "busybox sh"})
    if (shell_installed(shell))
      out.push_back(shell);
  return out;
}

// The script goes through a file, as `sh -c` in a pod would read it whole.
inline std::string run_shell(const std::string& shell, std::string_view script) {
  static int counter = 0;
  const std::string path =
      "/tmp/icheck_script_" + std::to_string(::getpid()) + "_" + std::to_string(++counter) + ".sh";
  std::ofstream(path) << script;
  std::string out;
  if (FILE* p = ::popen((shell + " " + path + " 2>&1").c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
      out.append(buf, n);
    ::pclose(p);
  }
  std::remove(path.c_str());
  return out;
}

}  // namespace icheck::test
