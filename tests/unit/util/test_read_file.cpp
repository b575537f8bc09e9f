// Every file the user names is read this way (manifests, kubeconfigs): what would block or
// flood is refused by its kind or size, before a byte is read.

#include "temp_dir.hpp"
#include "util/read_file.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <sys/stat.h>

namespace fs = std::filesystem;

TEST_CASE("a regular file within the cap is read whole") {
  icheck::test::TempDir s;
  const auto k = s.write("k", "apiVersion: v1\n");
  CHECK(icheck::read_regular_file(k, 100, "a kubeconfig").value() == "apiVersion: v1\n");
}

TEST_CASE("FIFO, character device and folder are refused by their kind, none waited on") {
  icheck::test::TempDir s;
  REQUIRE(::mkfifo((s.path() / "fifo").c_str(), 0600) == 0);
  CHECK(icheck::read_regular_file(s.path() / "fifo", 100, "x").error().message ==
        "not a regular file (a FIFO)");
  CHECK(icheck::read_regular_file("/dev/zero", 100, "x").error().message ==
        "not a regular file (a character device)");
  CHECK(icheck::read_regular_file(s.path(), 100, "x").error().message ==
        "not a regular file (a folder)");
}

TEST_CASE("a file past the cap is refused by its size, the kind of file named") {
  icheck::test::TempDir s;
  const auto big = s.write("big", "x");
  fs::resize_file(big, std::uintmax_t{40} << 20);  // sparse: costs no disk
  CHECK(icheck::read_regular_file(big, std::size_t{16} << 20, "a kubeconfig").error().message ==
        "larger than the 16 MiB a kubeconfig may be (40 MiB)");
}

TEST_CASE("a missing file says why") {
  CHECK(icheck::read_regular_file("/nonexistent/k", 100, "x").error().message ==
        "cannot be read (No such file or directory)");
}
