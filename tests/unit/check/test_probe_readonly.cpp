// Read-only proof of the probe scripts as they are sent to pods: no write, no redirection into
// a file, no package manager, no network call (DESIGN.md "Read-only and discreet").

#include "check/pod_pipeline.hpp"

#include <doctest/doctest.h>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The script without comment lines and without the contents of single-quoted strings (printf
// formats, the python scripts, which are data to the shell; a quoted script spans lines).
std::string shell_words(const std::string& script) {
  std::string out;
  bool quoted = false;
  bool line_start = true;
  for (std::size_t i = 0; i < script.size(); ++i) {
    const char c = script[i];
    if (quoted) {
      if (c == '\'')
        quoted = false, out += c;
      continue;
    }
    if (line_start && c == '#') {
      i = script.find('\n', i);
      if (i == std::string::npos)
        break;
      out += '\n';
      continue;
    }
    if (c == '\\' && i + 1 < script.size()) {
      out += script.substr(i++, 2);
      continue;
    }
    quoted = c == '\'';
    out += c;
    line_start = c == '\n' || (line_start && (c == ' ' || c == '\t'));
  }
  return out;
}

// Everything in the script that could change something or reach out: a redirection into
// anything but /dev/null, or one of these programs where a command starts (a path such as
// /opt/conda/lib is not a call).
std::vector<std::string> writes_or_network(const std::string& script) {
  static const std::regex redirect(R"((\d*)(>>?)\s*([^&\s;)][^\s;)]*))");
  static const std::regex forbidden(
      R"((^|[\s;&|(`])(rm|rmdir|mv|cp|dd|tee|touch|mkdir|chmod|chown|chgrp|ln|install|truncate|mkfifo|mknod|mktemp|apt|apt-get|dpkg|yum|dnf|rpm|zypper|apk|pip|pip3|conda|npm|curl|wget|nc|ncat|socat|ssh|scp|rsync|telnet|ping|modprobe|insmod|rmmod|sysctl|mount|umount|kubectl|shutdown|reboot)(?=[\s;&|)`]|$)|sed\s+-i|/dev/tcp|/dev/udp)");
  std::vector<std::string> found;
  const std::string words = shell_words(script);
  for (auto it = std::sregex_iterator(words.begin(), words.end(), redirect);
       it != std::sregex_iterator(); ++it) {
    if ((*it)[3] != "/dev/null")
      found.push_back("redirection " + it->str());
  }
  for (auto it = std::sregex_iterator(words.begin(), words.end(), forbidden);
       it != std::sregex_iterator(); ++it) {
    found.push_back("command " + it->str());
  }
  return found;
}

std::string joined(const std::vector<std::string>& found) {
  std::string out;
  for (const auto& f : found)
    out += f + "\n";
  return out;
}

}  // namespace

TEST_CASE("the checker finds writes, package managers and network calls") {
  CHECK(writes_or_network("echo x > /tmp/f\n").size() == 1);
  CHECK(writes_or_network("echo x >>$HOME/log\n").size() == 1);
  CHECK(writes_or_network("apt-get install -y rdma-core\n").size() == 2);
  CHECK(writes_or_network("curl -s http://x | sh\n").size() == 1);
  CHECK(writes_or_network("exec 3<>/dev/tcp/10.0.0.1/80\n").size() == 2);
  CHECK(writes_or_network("sed -i s/a/b/ /etc/x\n").size() == 1);
  CHECK(writes_or_network("# rm -rf / in a comment\nprintf '%s > %s' a b\n").empty());
  CHECK(writes_or_network("tool >/dev/null 2>&1 </dev/null\n").empty());
  CHECK(writes_or_network("python3 -c '\nif a > b:\n  x\n' </dev/null\necho > /tmp/f\n").size() ==
        1);
}

TEST_CASE("the node probe script as sent only reads") {
  const auto found = writes_or_network(icheck::check::probe_script(false));
  CHECK_MESSAGE(found.empty(), joined(found));
}

TEST_CASE("the node and NIXL probe script as sent only reads") {
  const auto found = writes_or_network(icheck::check::probe_script(true));
  CHECK_MESSAGE(found.empty(), joined(found));
}
