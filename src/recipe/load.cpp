#include "recipe/load.hpp"

#include "recipe/read_file.hpp"

#include <algorithm>
#include <utility>

namespace fs = std::filesystem;

namespace icheck::recipe {

namespace {

bool is_manifest_name(const fs::path& path) {
  const std::string name = path.filename().string();
  const std::string ext = path.extension().string();
  return !name.starts_with(".") && (ext == ".yaml" || ext == ".yml");
}

bool is_hidden(const fs::path& path) {
  return path.filename().string().starts_with(".");
}

// Deeper than this is a loop or a joke, not a recipe.
constexpr int kMaxDepth = 32;

// What a folder walk found: manifests to read, and folders that could not be listed.
struct Listing {
  std::vector<fs::path> manifests;
  std::vector<std::pair<fs::path, std::string>> unreadable; // folder, why
};

// A symlinked folder is not entered: it could lead back up (a loop) or out of the recipe.
bool is_folder(const fs::directory_entry& entry) {
  std::error_code ec;
  return !entry.is_symlink(ec) && entry.is_directory(ec);
}

// Every entry is looked at with an error code: one unreadable folder is reported and the
// walk goes on with its siblings.
void walk(const fs::path& folder, bool recursive, int depth, Listing& out) {
  std::error_code ec;
  fs::directory_iterator it(folder, ec);
  if (ec) {
    out.unreadable.emplace_back(folder, "folder cannot be read (" + ec.message() + ")");
    return;
  }
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const fs::path& path = it->path();
    if (is_hidden(path))
      continue;
    if (is_folder(*it)) {
      if (recursive && depth < kMaxDepth)
        walk(path, recursive, depth + 1, out);
    } else if (is_manifest_name(path)) {
      out.manifests.push_back(path); // a FIFO or a symlink loop is told apart when read
    }
  }
  if (ec)
    out.unreadable.emplace_back(folder, "folder listing stopped (" + ec.message() + ")");
}

bool has_subfolders(const fs::path& folder) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    if (is_folder(entry) && !is_hidden(entry.path())) {
      return true;
    }
  }
  return false;
}

ManifestFile unreadable(const fs::path& path, const std::string& display_name,
                        const std::string& why) {
  ManifestFile file;
  file.display_name = display_name;
  file.error = display_name + ": " + why;
  file.path = path;
  return file;
}

ManifestFile load_file(const fs::path& path, const std::string& display_name) {
  auto text = read_manifest_bytes(path);
  if (!text)
    return unreadable(path, display_name, text.error().message);
  ManifestFile file = parse_manifest(*text, display_name);
  file.path = path;
  return file;
}

std::string folder_name(const fs::path& folder, const fs::path& root) {
  const std::string name = folder.lexically_relative(root).generic_string();
  return (name.empty() || name == "." ? root.generic_string() : name) + "/";
}

} // namespace

Expected<std::vector<ManifestFile>> load_recipe(const fs::path& path, bool recursive) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (!fs::exists(status)) {
    const bool missing = !ec || ec == std::errc::no_such_file_or_directory;
    return Error{path.string() + (missing ? ": no such file or directory"
                                          : ": cannot be read (" + ec.message() + ")")};
  }
  if (!fs::is_directory(status)) {
    return std::vector<ManifestFile>{load_file(path, path.generic_string())};
  }
  Listing listing;
  walk(path, recursive, 0, listing);
  if (listing.manifests.empty() && listing.unreadable.empty()) {
    const bool hint = !recursive && has_subfolders(path);
    return Error{path.string() + ": no *.yaml or *.yml manifest in this folder" +
                 (hint ? " (its subfolders are read with --recursive)" : "")};
  }
  std::vector<ManifestFile> files;
  for (const auto& file : listing.manifests) {
    // Lexically: relative() resolves symlinks, and a looping one would leave the name empty.
    files.push_back(load_file(file, file.lexically_relative(path).generic_string()));
  }
  for (const auto& [folder, why] : listing.unreadable) {
    files.push_back(unreadable(folder, folder_name(folder, path), why));
  }
  std::sort(files.begin(), files.end(),
            [](const ManifestFile& a, const ManifestFile& b) { return a.path < b.path; });
  return files;
}

} // namespace icheck::recipe
