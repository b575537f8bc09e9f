// Whether each NIXL plugin's libraries resolve (probe/nixl/nixl_libs_script.hpp): the loader's
// real listings (tests/fixtures/ldd) parsed, and the fragment run with a fake ldd printing them.
#include "../fixture.hpp"
#include "probe/nixl/nixl_facts.hpp"
#include "probe/nixl/nixl_script.hpp"
#include "probe/node_script.hpp"
#include "run_shell.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace icheck::probe;
using icheck::probe::test::fixture;

namespace {

std::string body(const std::string& tool, const std::string& listing) {
  return "tool " + tool +
         "\ndir /opt/dynamo/nixl/plugins\n@ /opt/dynamo/nixl/plugins/libplugin_UCX.so\n" + listing +
         "@ /opt/dynamo/nixl/plugins/libplugin_POSIX.so\n";
}

}  // namespace

TEST_CASE("nixl_libs: ldd's real 'not found' line names the missing library (nixl #1561)") {
  auto libs =
      parse_nixl_libs(body("ldd", fixture("ldd/ldd-plugin-ucx-libucp-not-found.txt")), true);
  CHECK(libs.tool == "ldd");
  CHECK(libs.dir == "/opt/dynamo/nixl/plugins");
  REQUIRE(libs.plugins.count("UCX") == 1);
  CHECK(libs.plugins["UCX"].missing == std::vector<std::string>{"libucp.so.0"});
  CHECK(libs.plugins["POSIX"].missing.empty());
}

TEST_CASE("nixl_libs: a resolved UCX is kept as the copy it found, linux-vdso is not") {
  auto libs = parse_nixl_libs(body("ldd", fixture("ldd/ldd-plugin-ucx-libucp-resolved.txt")), true);
  CHECK(libs.plugins["UCX"].missing.empty());
  CHECK(libs.plugins["UCX"].uses ==
        std::vector<std::string>{"libucp.so.0 => /tmp/kv/ldd/libucp.so.0"});
}

TEST_CASE("nixl_libs: the dynamic loader alone stops at the first library it cannot open") {
  auto libs = parse_nixl_libs(
      body("ld.so", fixture("ldd/ldso-list-plugin-ucx-libucp-cannot-open.txt")), true);
  CHECK(libs.tool == "ld.so");
  CHECK(libs.plugins["UCX"].missing == std::vector<std::string>{"libucp.so.0"});
}

TEST_CASE("nixl_libs: no loader in the image (rc=absent) leaves the tool empty") {
  auto libs = parse_nixl_libs("", false);
  CHECK(libs.section);
  CHECK(libs.tool.empty());
  CHECK(parse_nixl_probe("@@icheck:begin nixl_libs@@\n@@icheck:end nixl_libs rc=absent@@\n")
            .plugin_libs.tool.empty());
  CHECK_FALSE(parse_nixl_probe("").plugin_libs.section);
}

TEST_CASE("nixl_libs fragment: the first plugin directory's plugins listed by a fake ldd, under "
          "dash and busybox") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("icheck_nixl_libs_" + std::to_string(::getpid()));
  fs::create_directories(dir / "bin");
  fs::create_directories(dir / "plugins");
  std::ofstream(dir / "plugins" / "libplugin_UCX.so") << "";
  std::ofstream(dir / "listing.txt") << fixture("ldd/ldd-plugin-ucx-libucp-not-found.txt");
  std::ofstream(dir / "bin" / "ldd")
      << "#!/bin/sh\ncase $1 in *UCX*) cat " << (dir / "listing.txt").string() << " ;; esac\n";
  fs::permissions(dir / "bin" / "ldd", fs::perms::owner_all);
  const std::string script =
      "PATH=" + (dir / "bin").string() + ":$PATH\nNIXL_PLUGIN_DIR=" + (dir / "plugins").string() +
      "\nexport NIXL_PLUGIN_DIR\n" + insert_before_done(node_probe_script(), nixl_probe_script());
  for (const std::string& shell : icheck::test::installed_shells()) {
    CAPTURE(shell);
    auto f = parse_nixl_probe(icheck::test::run_shell(shell, script));
    CHECK(f.plugin_libs.tool == "ldd");
    CHECK(f.plugin_libs.dir == (dir / "plugins").string());
    REQUIRE(f.plugin_libs.plugins.count("UCX") == 1);
    CHECK(f.plugin_libs.plugins.at("UCX").missing == std::vector<std::string>{"libucp.so.0"});
  }
  fs::remove_all(dir);
  CHECK_FALSE(icheck::test::installed_shells().empty());
}

TEST_CASE("nixl_libs: a listing its bound stopped lists nothing, the shared budget and odd names "
          "are said") {
  // synthetic: the fragment's own lines around a listing
  auto libs = parse_nixl_libs("tool ldd\ndir /p\nodd-name\n@ /p/libplugin_A.so\nrc 124\n"
                              "@ /p/libplugin_B.so\nrc 143\n@ /p/libplugin_POSIX.so\n\nrc 0\n"
                              "budget 10\n",
                              true);
  CHECK(libs.plugins.count("A") == 0);
  CHECK(libs.plugins.count("B") == 0);
  CHECK(libs.plugins.count("POSIX") == 1);
  CHECK(libs.odd_names == 1);
  CHECK(libs.budget_spent);
}

TEST_CASE("nixl_libs fragment: a file name with newlines forges no listing or plugin line") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("icheck_nixl_forged_" + std::to_string(::getpid()));
  fs::create_directories(dir / "bin");
  fs::create_directories(dir / "plugins");
  std::ofstream(dir / "plugins" / "libplugin_UCX.so") << "";
  std::ofstream(dir / "plugins" /
                "libplugin_A.so\n@ libplugin_UCX.so\nlibucp.so.0 => not found\nlibplugin_Z.so")
      << "";
  std::ofstream(dir / "bin" / "ldd") << "#!/bin/sh\nexit 0\n";  // every library resolves
  fs::permissions(dir / "bin" / "ldd", fs::perms::owner_all);
  const std::string script =
      "PATH=" + (dir / "bin").string() + ":$PATH\nNIXL_PLUGIN_DIR=" + (dir / "plugins").string() +
      "\nexport NIXL_PLUGIN_DIR\n" + insert_before_done(node_probe_script(), nixl_probe_script());
  for (const std::string& shell : icheck::test::installed_shells()) {
    CAPTURE(shell);
    auto f = parse_nixl_probe(icheck::test::run_shell(shell, script));
    REQUIRE(f.plugin_libs.plugins.count("UCX") == 1);
    CHECK(f.plugin_libs.plugins.at("UCX").missing.empty());
    CHECK(f.plugin_libs.odd_names == 1);
    REQUIRE(f.plugin_dirs.size() == 1);
    CHECK(f.plugin_dirs.front().plugins == std::vector<std::string>{"UCX"});
  }
  fs::remove_all(dir);
  CHECK_FALSE(icheck::test::installed_shells().empty());
}
