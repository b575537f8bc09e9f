// Recipe input that would block or flood: only regular files are read, never more than the
// cap, every entry that cannot be read is reported and the walk goes on.

#include "recipe/load.hpp"
#include "recipe/read_file.hpp"
#include "minimal_dgd.hpp"
#include "temp_dir.hpp"

#include <chrono>
#include <doctest/doctest.h>
#include <filesystem>
#include <sys/stat.h>

using namespace icheck;
namespace fs = std::filesystem;

namespace {

using test::minimal_dgd;

const recipe::ManifestFile& named(const std::vector<recipe::ManifestFile>& files,
                                  const std::string& name) {
  for (const auto& f : files) {
    if (f.display_name == name)
      return f;
  }
  FAIL("no file " << name);
  return files.front();
}

} // namespace

TEST_CASE("a FIFO named like a manifest is reported, not waited on") {
  test::TempDir dir;
  dir.write("a.yaml", minimal_dgd);
  REQUIRE(::mkfifo((dir.path() / "b.yaml").c_str(), 0600) == 0);
  const auto start = std::chrono::steady_clock::now();
  auto loaded = recipe::load_recipe(dir.path(), false);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  REQUIRE(loaded.has_value());
  REQUIRE(loaded->size() == 2);
  CHECK(named(*loaded, "a.yaml").deployments.size() == 1);
  CHECK(named(*loaded, "b.yaml").error == "b.yaml: not a regular file (a FIFO)");
}

TEST_CASE("/dev/zero as the manifest is refused without reading it") {
  auto loaded = recipe::load_recipe("/dev/zero", false);
  REQUIRE(loaded.has_value());
  REQUIRE(loaded->size() == 1);
  CHECK(loaded->front().error == "/dev/zero: not a regular file (a character device)");
}

TEST_CASE("a 500 MB manifest is refused by its size, the cap named") {
  test::TempDir dir;
  const auto big = dir.write("huge.yaml", "kind: x\n");
  fs::resize_file(big, std::uintmax_t{500} << 20); // sparse: costs no disk
  auto loaded = recipe::load_recipe(big, false);
  REQUIRE(loaded.has_value());
  CHECK(loaded->front().error ==
        big.generic_string() + ": larger than the 16 MiB a manifest may be (500 MiB)");
}

TEST_CASE("the cap also holds for bytes read, and a file at the cap is read") {
  test::TempDir dir;
  const auto file = dir.write("x.yaml", std::string(100, 'a'));
  CHECK(recipe::read_manifest_bytes(file, 100).value() == std::string(100, 'a'));
  CHECK(recipe::read_manifest_bytes(file, 99).error().message ==
        "larger than the 0 MiB a manifest may be (0 MiB)");
}

TEST_CASE("a symlink loop is reported for that file, the others load") {
  test::TempDir dir;
  dir.write("a.yaml", minimal_dgd);
  fs::create_symlink("loop.yaml", dir.path() / "loop.yaml");
  fs::create_directories(dir.path() / "sub");
  dir.write("sub/c.yaml", minimal_dgd);
  fs::create_directory_symlink("..", dir.path() / "sub" / "up"); // a folder loop: not entered
  auto loaded = recipe::load_recipe(dir.path(), true);
  REQUIRE(loaded.has_value());
  REQUIRE(loaded->size() == 3);
  CHECK(named(*loaded, "a.yaml").deployments.size() == 1);
  CHECK(named(*loaded, "sub/c.yaml").deployments.size() == 1);
  CHECK(named(*loaded, "loop.yaml").error ==
        "loop.yaml: cannot be read (Too many levels of symbolic links)");
}

TEST_CASE("a symlink loop given as the path is an error naming the loop") {
  test::TempDir dir;
  fs::create_symlink("self", dir.path() / "self");
  auto loaded = recipe::load_recipe(dir.path() / "self", false);
  REQUIRE_FALSE(loaded.has_value());
  CHECK(loaded.error().message.ends_with(": cannot be read (Too many levels of symbolic links)"));
}
