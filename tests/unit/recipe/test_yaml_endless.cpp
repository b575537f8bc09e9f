// YAML that yaml-cpp 0.7's LoadAll never finishes (an empty document added per turn until memory
// runs out): the file is an error naming the place, and every other file still reads.

#include "minimal_dgd.hpp"
#include "recipe/load.hpp"

#include <doctest/doctest.h>
#include <filesystem>

using namespace icheck;

TEST_CASE("a stray ',' after a top-level flow map ends the file with an error, not a loop") {
  const auto file = recipe::parse_manifest("{},\n", "stray.yaml");
  REQUIRE(file.error.has_value());
  CHECK(*file.error ==
        "stray.yaml:1:3: the YAML reader cannot get past this point (a token no document can "
        "start with, such as a stray ','); the file is not read");
  CHECK(file.deployments.empty());
}

TEST_CASE("fuzz_recipe's slow input (a mutated qwen3-32b recipe) is read to an error") {
  const auto path = std::filesystem::path(ICHECK_TEST_DATA) / "fixtures" / "recipe" /
                    "fuzz-stray-comma-after-flow.yaml";
  auto files = recipe::load_recipe(path, false);
  REQUIRE(files.has_value());
  REQUIRE(files->size() == 1);
  const auto& file = files->front();
  REQUIRE(file.error.has_value());
  CHECK(file.error->find("fuzz-stray-comma-after-flow.yaml:9:") != std::string::npos);
  CHECK(file.error->find("cannot get past this point") != std::string::npos);
  CHECK(file.deployments.empty());
}

TEST_CASE("documents after empty ones and after '...' still read (the bound stops no progress)") {
  const std::string text = "---\n---\n" + test::minimal_dgd + "...\n---\n" + test::minimal_dgd;
  const auto file = recipe::parse_manifest(text, "many.yaml");
  CHECK_FALSE(file.error.has_value());
  CHECK(file.deployments.size() == 2);
}

TEST_CASE("200000 empty documents are refused at the cap, no node built for them") {
  std::string text;
  for (int i = 0; i < 200000; ++i)
    text += "---\n";
  const auto file = recipe::parse_manifest(text, "empty.yaml");
  REQUIRE(file.error.has_value());
  CHECK(*file.error == "empty.yaml:10001: more than 10000 YAML documents (a recipe's manifest "
                       "holds a few); the file is not read");
}

TEST_CASE("a DGD after many empty documents, within the cap, still reads") {
  std::string text;
  for (int i = 0; i < 9000; ++i)
    text += "---\n";
  const auto file = recipe::parse_manifest(text + test::minimal_dgd, "padded.yaml");
  CHECK_FALSE(file.error.has_value());
  CHECK(file.deployments.size() == 1);
}
