// Every file the user names is read this way (manifests, kubeconfigs): what would block or
// flood is refused by its kind or size, before a byte is read.

#include "util/read_file.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <sys/stat.h>

namespace fs = std::filesystem;

namespace {

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("icheck-read-" + std::to_string(std::random_device()()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

}  // namespace

TEST_CASE("a regular file within the cap is read whole") {
  Scratch s;
  std::ofstream(s.dir / "k") << "apiVersion: v1\n";
  CHECK(icheck::read_regular_file(s.dir / "k", 100, "a kubeconfig").value() == "apiVersion: v1\n");
}

TEST_CASE("FIFO, character device and folder are refused by their kind, none waited on") {
  Scratch s;
  REQUIRE(::mkfifo((s.dir / "fifo").c_str(), 0600) == 0);
  CHECK(icheck::read_regular_file(s.dir / "fifo", 100, "x").error().message ==
        "not a regular file (a FIFO)");
  CHECK(icheck::read_regular_file("/dev/zero", 100, "x").error().message ==
        "not a regular file (a character device)");
  CHECK(icheck::read_regular_file(s.dir, 100, "x").error().message ==
        "not a regular file (a folder)");
}

TEST_CASE("a file past the cap is refused by its size, the kind of file named") {
  Scratch s;
  std::ofstream(s.dir / "big") << "x";
  fs::resize_file(s.dir / "big", std::uintmax_t{40} << 20);  // sparse: costs no disk
  CHECK(icheck::read_regular_file(s.dir / "big", std::size_t{16} << 20, "a kubeconfig")
            .error()
            .message == "larger than the 16 MiB a kubeconfig may be (40 MiB)");
}

TEST_CASE("a missing file says why") {
  CHECK(icheck::read_regular_file("/nonexistent/k", 100, "x").error().message ==
        "cannot be read (No such file or directory)");
}
