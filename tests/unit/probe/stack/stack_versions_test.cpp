// The stack_versions and stack_fi_info sections into library versions, every copy kept.
#include "file_text.hpp"
#include "probe/stack/stack_versions.hpp"

#include <doctest/doctest.h>
#include <fstream>
#include <sstream>

using namespace icheck::probe;

namespace {

// A fixture without its `# source:` / `# synthetic:` first line.
std::string fixture(const std::string& name) {
  std::ifstream in(std::string(ICHECK_TEST_DATA) + "/fixtures/stack/" + name);
  std::stringstream s;
  s << in.rdbuf();
  auto text = s.str();
  REQUIRE(text.starts_with("# "));
  return text.substr(text.find('\n') + 1);
}

}  // namespace

TEST_CASE("stack versions: wheels, libraries, pkg-config, CUDA, kernel") {
  auto v = parse_stack_versions(fixture("stack-versions-vllm-cu13.txt"));
  CHECK(v.read);
  CHECK(v.version("nixl") == "1.3.1");
  CHECK(v.version("nixl-cu12") == "1.3.1");
  CHECK(v.version("nixl-cu13") == "1.3.2");
  CHECK(v.version("vllm") == "0.26.0");
  CHECK(v.version("torch") == "2.10.0+cu130");
  CHECK(v.version("nccl.wheel") == "2.28.9");
  CHECK(v.version("dynamo") == "1.4.1");
  CHECK(v.version("ucx.system") == "1.21.0");
  CHECK(v.version("kernel") == "6.8.0-90-generic");
  // libcudart's file and version.json say two versions of one runtime: both kept, none chosen.
  CHECK(v.copies.at("cuda").size() == 2);
  CHECK(v.version("cuda").empty());
  CHECK(v.version("libfabric").empty());
}

TEST_CASE("stack versions: one wheel in two site folders at two versions disagrees") {
  auto v =
      parse_stack_versions("dist /usr/lib/python3/dist-packages/nixl_cu12-1.3.0.dist-info\n"
                           "dist /opt/venv/lib/python3.12/site-packages/nixl_cu12-1.3.1.dist-info\n"
                           "dist /x/not_ours-1.0.dist-info\n"
                           "lib /usr/lib/x86_64-linux-gnu/libnccl.so.2.21.5\n"
                           "garbage\n");
  CHECK(v.copies.at("nixl-cu12").size() == 2);
  CHECK(v.version("nixl-cu12").empty());
  CHECK(v.version("nccl") == "2.21.5");
  CHECK(v.copies.size() == 2);
}

TEST_CASE("stack versions: fi_info --version names libfabric's release") {
  StackVersions v;
  read_fi_info_version(fixture("fi_info-version-1.19.0amzn3.0.txt"), v);
  CHECK(v.version("libfabric") == "1.19.0amzn3.0");
  StackVersions none;
  read_fi_info_version("fi_info: command not found\n", none);
  CHECK(none.copies.empty());
}

TEST_CASE("stack env: the whole environment, credential-like values masked") {
  auto env =
      parse_whole_env("7 UCX_TLS=rc,cuda\n5 HF_TOKEN=hf_ab\n3 TWO=a\nb\n0 EMPTY=\nnot a record");
  CHECK(env.at("UCX_TLS") == "rc,cuda");
  CHECK(env.at("TWO") == "a\nb");
  CHECK(env.at("EMPTY").empty());
  CHECK(env.at("HF_TOKEN") != "hf_ab");
  CHECK(env.size() == 4);
}

TEST_CASE("stack versions: every libnixl copy once, and the one LD_LIBRARY_PATH resolves first") {
  auto v = parse_stack_versions(fixture("stack-versions-trtllm-three-nixl.txt"));
  REQUIRE(v.nixl_libs.size() == 3);
  CHECK(v.nixl_libs[0] == "/opt/nvidia/nvda_nixl/lib/x86_64-linux-gnu/libnixl.so");
  CHECK(v.nixl_libs[1] ==
        "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/libs/nixl/libnixl.so");
  CHECK(v.nixl_ld_first == "/opt/nvidia/nvda_nixl/lib/x86_64-linux-gnu/libnixl.so");
  CHECK(v.version("nixl-cu12") == "0.10.0");
  // A line repeated is one copy; no nixlld line: LD_LIBRARY_PATH names none.
  auto once = parse_stack_versions("nixllib /opt/nvidia/nvda_nixl/lib64/libnixl.so\n"
                                   "nixllib /opt/nvidia/nvda_nixl/lib64/libnixl.so\n");
  CHECK(once.nixl_libs.size() == 1);
  CHECK(once.nixl_ld_first.empty());
}
