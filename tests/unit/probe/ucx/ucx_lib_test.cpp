// The image's own UCX asked through python3 ctypes (probe/ucx/ucx_lib_*): the section's parser
// on real captures of the script (Debian's UCX as installed, and copied into a NIXL wheel's
// .libs layout), and the script run for real against Debian's libucx0 on this machine, whose
// facts must agree with what ucx_info -d says on the same machine.
#include "../fixture.hpp"
#include "probe/node_probe.hpp"
#include "probe/parsers.hpp"
#include "probe/ucx/ucx_lib_facts.hpp"
#include "probe/ucx/ucx_lib_script.hpp"
#include "run_shell.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <unistd.h>

using namespace icheck::probe;
using icheck::probe::test::fixture;

namespace {

std::vector<std::string> transports(const UcxDevices& d) {
  std::vector<std::string> out;
  for (const auto& t : d.transports)
    out.push_back(t.memory_domain + " " + t.transport + "/" + t.device + " " + t.type);
  return out;
}

std::vector<std::string> domains(const UcxDevices& d) {
  std::vector<std::string> out;
  for (const auto& m : d.memory_domains)
    out.push_back(m.name + " " + m.component + (m.no_devices ? " none" : "") +
                  (m.failed_to_open ? " failed" : ""));
  return out;
}

// The node script's helpers the fragment uses, and a PATH holding only python3 (no ucx_info).
std::string fragment_alone(const std::string& bin) {
  return "T=8\nICHECK_MARK=@@icheck:\n"
         "begin() { printf '\\n%sbegin %s@@\\n' \"$ICHECK_MARK\" \"$1\"; }\n"
         "end() { printf '\\n%send %s rc=%s@@\\n' \"$ICHECK_MARK\" \"$1\" \"$2\"; }\n"
         "bounded() { timeout -s KILL \"$T\" \"$@\"; }\n"
         "PATH=" +
         bin + "\n" + std::string(ucx_lib_fragment()) + "printf '\\n@@icheck:done@@\\n'\n";
}

}  // namespace

TEST_CASE("ucx_lib: Debian's UCX 1.13.1 as the script printed it reads as ucx_info's facts") {
  auto lib = parse_ucx_lib(fixture("ucx_lib/debian-1.13-system.txt"), true, 0, false);
  CHECK(lib.answered());
  CHECK(lib.source == "system /usr/lib/x86_64-linux-gnu");
  CHECK(lib.libucp == "/usr/lib/x86_64-linux-gnu/libucp.so.0");
  CHECK(lib.where() == "libucp via python3 ctypes: /usr/lib/x86_64-linux-gnu/libucp.so.0 (no "
                       "process maps UCX, no NIXL wheel copy)");
  CHECK(parse_ucx_version(lib.version_text).version == "1.13.1");
  auto d = parse_ucx_devices(lib.devices_text);
  CHECK(domains(d) ==
        std::vector<std::string>{"self self", "tcp tcp", "sysv sysv", "posix posix", "cma cma"});
  CHECK(transports(d).front() == "self self/memory0 loopback");
  CHECK_FALSE(d.old_layout);
  CHECK(d.memory_domains[1].memory_types == std::vector<std::string>{"host"});
  CHECK(lib.module_dir == "/usr/lib/x86_64-linux-gnu/ucx");
  CHECK(lib.modules_loaded ==
        std::vector<std::string>{"libuct_cma.so.0", "libuct_ib.so.0", "libuct_rdmacm.so.0"});
  CHECK(lib.has_module("ib"));
  CHECK_FALSE(lib.has_module("cuda"));
  CHECK_FALSE(lib.has_module("i"));
}

TEST_CASE("ucx_lib: the NIXL wheel's .libs layout: renamed libraries, modules in .libs/ucx") {
  auto lib = parse_ucx_lib(fixture("ucx_lib/debian-1.13-wheel-layout.txt"), true, 0, false);
  REQUIRE(lib.answered());
  CHECK(lib.source.starts_with("wheel "));
  CHECK(lib.source.ends_with("/site-packages/nixl_cu13.libs"));
  CHECK(lib.libucp.ends_with("/nixl_cu13.libs/libucp-e76cb9e6.so.0.0.0"));
  CHECK(lib.where().ends_with(", the NIXL wheel's copy (no process maps UCX)"));
  CHECK(lib.module_dir.ends_with("/nixl_cu13.libs/ucx"));
  CHECK(lib.modules_loaded.size() == 3);
  CHECK(lib.modules_loaded.front() == "libuct_cma.so.0.0.0");
  // Same library, other place: the same facts as the system copy.
  auto system = parse_ucx_lib(fixture("ucx_lib/debian-1.13-system.txt"), true, 0, false);
  CHECK(transports(parse_ucx_devices(lib.devices_text)) ==
        transports(parse_ucx_devices(system.devices_text)));
}

TEST_CASE("ucx_lib: not run, no python3, the script's own reasons, a cut or timed-out run") {
  CHECK(parse_ucx_lib("not run: ucx_info is in the image\n", true, 0, false).not_run ==
        "ucx_info is in the image");
  auto none = parse_ucx_lib("", false, -1, false);
  CHECK((none.section && !none.python && !none.answered()));
  CHECK(
      parse_ucx_lib("skipped: python3 has no ctypes (No module named '_ctypes')\n", true, 0, false)
          .skipped == "python3 has no ctypes (No module named '_ctypes')");
  CHECK(parse_ucx_lib("error: no UCX copy loads: /x/libucp.so.0: cannot open\n", true, 1, false)
            .error == "no UCX copy loads: /x/libucp.so.0: cannot open");
  // A process that died inside UCX (no end marker) answered nothing, whatever it printed.
  auto cut = fixture("ucx_lib/debian-1.13-system.txt");
  cut = cut.substr(0, cut.find("==> modules <=="));
  auto died = parse_ucx_lib(cut, true, 139, false);
  CHECK_FALSE(died.answered());
  CHECK(died.error == "python3 asking libucp exited 139 before it finished "
                      "(/usr/lib/x86_64-linux-gnu/libucp.so.0)");
  CHECK(parse_ucx_lib(cut, true, 137, true).error == "python3 asking libucp timed out");
}

TEST_CASE("ucx_lib: the script travels inside single quotes") {
  CHECK(ucx_lib_python().find('\'') == std::string::npos);
  CHECK(ucx_lib_fragment().find("bounded python3 -c '") != std::string_view::npos);
}

TEST_CASE("ucx_lib: Debian's libucx0 through python3 ctypes agrees with ucx_info on this machine") {
  namespace fs = std::filesystem;
  if (!fs::exists("/usr/bin/ucx_info") || !fs::exists("/usr/bin/python3")) {
    MESSAGE("skipped: no /usr/bin/ucx_info or /usr/bin/python3 (tools/deps.sh installs ucx-utils)");
    return;
  }
  const fs::path bin = fs::temp_directory_path() / ("icheck_ucx_lib_" + std::to_string(::getpid()));
  fs::create_directories(bin);
  fs::create_symlink("/usr/bin/python3", bin / "python3");
  fs::create_symlink("/usr/bin/timeout", bin / "timeout");
  auto facts = parse_node_probe(icheck::test::run_shell("/bin/sh", fragment_alone(bin.string())));
  fs::remove_all(bin);
  REQUIRE(facts.ucx_lib.answered());
  CHECK(facts.ucx_source.starts_with("libucp via python3 ctypes: "));
  REQUIRE(facts.ucx_devices.has_value());
  REQUIRE(facts.ucx_version.has_value());

  auto info_d = parse_ucx_devices(icheck::test::run_shell("/bin/sh", "ucx_info -d"));
  auto info_v = parse_ucx_version(icheck::test::run_shell("/bin/sh", "ucx_info -v"));
  CHECK(facts.ucx_version->version == info_v.version);
  CHECK(domains(*facts.ucx_devices) == domains(info_d));
  CHECK(transports(*facts.ucx_devices) == transports(info_d));
  CHECK_FALSE(transports(info_d).empty());
  // ucx_info 1.13 prints no memory types; from 1.14 on it does, and then they must agree too.
  for (std::size_t i = 0; i < info_d.memory_domains.size(); ++i)
    if (!info_d.memory_domains[i].memory_types.empty())
      CHECK(facts.ucx_devices->memory_domains[i].memory_types ==
            info_d.memory_domains[i].memory_types);
}
