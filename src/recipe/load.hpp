#pragma once
// Loading a recipe: a mode folder (every *.yaml / *.yml in it) or one manifest file.
// Each file is reported on its own: a folder often holds alternative manifests
// (deploy.yaml, deploy-aks-ib.yaml, ...) that must not be mixed.

#include "recipe/model.hpp"
#include "util/expected.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::recipe {

// Files whose YAML cannot be read come back with `error` set; the call itself fails only
// when the path is missing or holds no manifest at all. Nested folders (variants,
// kustomize/) are read only with `recursive`; hidden files (.kustomize-matrix.yaml) never.
Expected<std::vector<ManifestFile>> load_recipe(const std::filesystem::path& path,
                                                bool recursive);

// Parses one manifest's text (no I/O); `display_name` prefixes error messages.
ManifestFile parse_manifest(std::string_view text, const std::string& display_name);

}  // namespace icheck::recipe
