// Kubeconfig files are input like any other (util/read_file.hpp): on the real file system a
// FIFO, /dev/zero, a folder or a huge file is an error naming the file, never a hang or GiBs.

#include "kube/kubeconfig.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <sys/stat.h>

using namespace icheck::kube;
namespace fs = std::filesystem;

namespace {

// The real file system, with KUBECONFIG as the test sets it.
Environment with_kubeconfig(const std::string& list) {
  Environment env = real_environment();
  env.getenv = [list](std::string_view name) -> std::optional<std::string> {
    if (name == "KUBECONFIG")
      return list;
    return std::nullopt;
  };
  return env;
}

std::string error_for_flag(const std::string& path) {
  KubeFlags flags;
  flags.kubeconfig = path;
  return resolve_kube(flags, with_kubeconfig("")).error().message;
}

const char* kGood = "apiVersion: v1\nkind: Config\ncurrent-context: c\ncontexts:\n"
                    "- name: c\n  context: {cluster: k, user: u, namespace: ns}\n";

}  // namespace

TEST_CASE("--kubeconfig /dev/zero is refused by its kind, not read") {
  CHECK(error_for_flag("/dev/zero") ==
        "error: error loading config file \"/dev/zero\": not a regular file (a character device)");
}

TEST_CASE("--kubeconfig naming a FIFO or a folder: the file and its kind are named") {
  icheck::test::TempDir s;
  REQUIRE(::mkfifo((s.path() / "fifo").c_str(), 0600) == 0);
  const auto fifo = (s.path() / "fifo").string();
  CHECK(error_for_flag(fifo) ==
        "error: error loading config file \"" + fifo + "\": not a regular file (a FIFO)");
  CHECK(error_for_flag(s.path().string()) == "error: error loading config file \"" +
                                                 s.path().string() +
                                                 "\": not a regular file (a folder)");
}

TEST_CASE("a kubeconfig past the 16 MiB cap is refused by its size") {
  icheck::test::TempDir s;
  const auto big = s.write("big", "apiVersion: v1\n").string();
  fs::resize_file(big, std::uintmax_t{2} << 30);  // sparse: 2 GiB costs no disk
  CHECK(error_for_flag(big) == "error: error loading config file \"" + big +
                                   "\": larger than the 16 MiB a kubeconfig may be (2048 MiB)");
}

TEST_CASE("every file in KUBECONFIG is read the same way: a FIFO after a good file stops the run") {
  icheck::test::TempDir s;
  const auto good = s.write("good", kGood).string();
  REQUIRE(::mkfifo((s.path() / "fifo").c_str(), 0600) == 0);
  const auto fifo = (s.path() / "fifo").string();
  auto resolved = resolve_kube({}, with_kubeconfig(good + ":" + fifo));
  REQUIRE_FALSE(resolved.has_value());
  CHECK(resolved.error().message ==
        "error: error loading config file \"" + fifo + "\": not a regular file (a FIFO)");
}

TEST_CASE("the good file alone resolves (the FIFO is what failed)") {
  icheck::test::TempDir s;
  auto resolved = resolve_kube({}, with_kubeconfig(s.write("good", kGood).string()));
  REQUIRE(resolved.has_value());
  CHECK(resolved->context == "c");
  CHECK(resolved->namespace_ == "ns");
}
