#include "recipe/load.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace icheck::recipe {

namespace {

bool is_manifest_name(const fs::path& path) {
  const std::string name = path.filename().string();
  const std::string ext = path.extension().string();
  return !name.starts_with(".") && (ext == ".yaml" || ext == ".yml");
}

bool is_hidden(const fs::path& path) { return path.filename().string().starts_with("."); }

std::vector<fs::path> manifests_in(const fs::path& folder, bool recursive) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (recursive) {
    auto it = fs::recursive_directory_iterator(folder, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_directory() && is_hidden(it->path())) {
        it.disable_recursion_pending();
      } else if (it->is_regular_file() && is_manifest_name(it->path())) {
        out.push_back(it->path());
      }
    }
  } else {
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
      if (entry.is_regular_file() && is_manifest_name(entry.path())) {
        out.push_back(entry.path());
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool has_subfolders(const fs::path& folder) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    if (entry.is_directory() && !is_hidden(entry.path())) {
      return true;
    }
  }
  return false;
}

ManifestFile load_file(const fs::path& path, const std::string& display_name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ManifestFile file;
    file.display_name = display_name;
    file.error = display_name + ": cannot be read";
    file.path = path;
    return file;
  }
  std::ostringstream text;
  text << in.rdbuf();  // an empty file sets failbit here; it parses as no documents
  ManifestFile file = parse_manifest(text.str(), display_name);
  file.path = path;
  return file;
}

}  // namespace

Expected<std::vector<ManifestFile>> load_recipe(const fs::path& path, bool recursive) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    return Error{path.string() + ": no such file or directory"};
  }
  if (!fs::is_directory(path, ec)) {
    return std::vector<ManifestFile>{load_file(path, path.generic_string())};
  }
  const std::vector<fs::path> paths = manifests_in(path, recursive);
  if (paths.empty()) {
    const bool hint = !recursive && has_subfolders(path);
    return Error{path.string() + ": no *.yaml or *.yml manifest in this folder" +
                 (hint ? " (its subfolders are read with --recursive)" : "")};
  }
  std::vector<ManifestFile> files;
  for (const auto& file : paths) {
    files.push_back(load_file(file, fs::relative(file, path, ec).generic_string()));
  }
  return files;
}

}  // namespace icheck::recipe
