// Bad input: a clear message, never a crash; the other files of a folder are still loaded.

#include "recipe/load.hpp"
#include "minimal_dgd.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

using namespace icheck;

using test::minimal_dgd;

TEST_CASE("a missing path is an error naming it") {
  auto loaded = recipe::load_recipe("/nonexistent/recipe", false);
  REQUIRE_FALSE(loaded.has_value());
  CHECK(loaded.error().message == "/nonexistent/recipe: no such file or directory");
}

TEST_CASE("an empty folder is an error") {
  test::TempDir dir;
  auto loaded = recipe::load_recipe(dir.path(), false);
  REQUIRE_FALSE(loaded.has_value());
  CHECK(loaded.error().message == dir.path().string() + ": no *.yaml or *.yml manifest in this folder");
}

TEST_CASE("a folder with manifests only in subfolders hints at --recursive") {
  test::TempDir dir;
  dir.write("efa/deploy.yaml", minimal_dgd);
  auto loaded = recipe::load_recipe(dir.path(), false);
  REQUIRE_FALSE(loaded.has_value());
  CHECK(loaded.error().message.ends_with("(its subfolders are read with --recursive)"));
  auto recursive = recipe::load_recipe(dir.path(), true);
  REQUIRE(recursive.has_value());
  REQUIRE(recursive->size() == 1);
  CHECK(recursive->front().display_name == "efa/deploy.yaml");
}

TEST_CASE("a YAML syntax error names file and line, the other files still load") {
  test::TempDir dir;
  dir.write("a-good.yaml", minimal_dgd);
  dir.write("b-broken.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n");
  auto loaded = recipe::load_recipe(dir.path(), false);
  REQUIRE(loaded.has_value());
  REQUIRE(loaded->size() == 2);
  CHECK_FALSE((*loaded)[0].error.has_value());
  CHECK((*loaded)[0].deployments.size() == 1);
  REQUIRE((*loaded)[1].error.has_value());
  CHECK((*loaded)[1].error->starts_with("b-broken.yaml:5: YAML syntax error: "));
}

TEST_CASE("a file that is not YAML at all") {
  auto binary = recipe::parse_manifest(std::string("\x7f" "ELF\0\0\x01", 7), "tool.yaml");
  REQUIRE(binary.error.has_value());
  CHECK(*binary.error == "tool.yaml: not a YAML file (binary content)");
  auto prose = recipe::parse_manifest("Just some notes about the recipe.\n", "notes.yaml");
  REQUIRE(prose.error.has_value());
  CHECK(*prose.error == "notes.yaml:1: not a Kubernetes manifest (a document that is not a mapping)");
}

TEST_CASE("a manifest without a DynamoGraphDeployment is no error: its kinds are listed") {
  auto file = recipe::parse_manifest("apiVersion: batch/v1\nkind: Job\nmetadata: {name: bench}\n",
                                     "perf.yaml");
  CHECK_FALSE(file.error.has_value());
  CHECK(file.deployments.empty());
  CHECK(file.other_kinds == std::vector<std::string>{"Job/bench"});
}

TEST_CASE("an unknown DGD apiVersion is reported with its line") {
  auto file = recipe::parse_manifest(
      "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n"
      "apiVersion: nvidia.com/v2\nkind: DynamoGraphDeployment\nmetadata: {name: x}\n",
      "deploy.yaml");
  REQUIRE(file.error.has_value());
  CHECK(*file.error == "deploy.yaml:6: DynamoGraphDeployment x has apiVersion 'nvidia.com/v2' "
                       "(known: nvidia.com/v1alpha1, nvidia.com/v1beta1)");
}
