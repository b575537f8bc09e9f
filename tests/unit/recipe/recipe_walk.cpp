#include "recipe_walk.hpp"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace icheck::test {

namespace {

const std::regex transport_name(
    "(NIXL_|UCX_|NCCL_|GLOO_|VLLM_NIXL_)[A-Z0-9_]*|TRTLLM_[A-Z0-9_]*(KVCACHE|NIXL|UCX|MNNVL)[A-Z0-9_]*");

bool is_transport(const std::string& name) { return std::regex_match(name, transport_name); }

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> documents(const std::string& text) {
  std::vector<std::string> docs(1);
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("---")) {
      docs.emplace_back();
    } else {
      docs.back() += line + "\n";
    }
  }
  return docs;
}

void collect(const YAML::Node& node, std::set<std::string>& out) {
  if (!node) {
    return;
  }
  if (node.IsMap()) {
    if (node["name"] && node["name"].IsScalar() && (node["value"] || node["valueFrom"]) &&
        is_transport(node["name"].Scalar())) {
      out.insert(node["name"].Scalar());
    }
    for (const auto& entry : node) {
      collect(entry.second, out);
    }
  } else if (node.IsSequence()) {
    for (const auto& item : node) {
      collect(item, out);
    }
  }
}

}  // namespace

std::vector<fs::path> recipe_folders() {
  std::set<fs::path> folders;
  for (const auto& entry : fs::recursive_directory_iterator(recipes_root)) {
    const auto& path = entry.path();
    const auto ext = path.extension();
    if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml") &&
        !path.filename().string().starts_with(".")) {
      folders.insert(path.parent_path());
    }
  }
  return {folders.begin(), folders.end()};
}

std::map<std::string, int> scan_transport_lines(const fs::path& file) {
  static const std::regex line_re(R"(^\s*(-\s*)?\{?\s*name:\s*["']?([A-Za-z0-9_]+)["']?.*$)");
  static const std::regex dgd_kind(R"((^|\n)kind:\s*DynamoGraphDeployment\s*\n)");
  std::map<std::string, int> out;
  for (const auto& doc : documents(read_text(file))) {
    if (!std::regex_search(doc, dgd_kind)) {
      continue;
    }
    std::istringstream in(doc);
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      const auto first = line.find_first_not_of(' ');
      if (first != std::string::npos && line[first] != '#' && std::regex_match(line, m, line_re) &&
          is_transport(m[2])) {
        ++out[m[2]];
      }
    }
  }
  return out;
}

std::map<std::string, std::set<std::string>> walk_transport_names(const fs::path& file) {
  std::map<std::string, std::set<std::string>> out;
  for (const auto& doc : YAML::LoadAllFromFile(file.string())) {
    if (!doc.IsMap() || !doc["kind"] || doc["kind"].as<std::string>() != "DynamoGraphDeployment") {
      continue;
    }
    const std::string dgd = doc["metadata"]["name"].as<std::string>();
    const YAML::Node spec = doc["spec"];
    std::set<std::string> graph;
    collect(spec["env"], graph);
    collect(spec["envs"], graph);
    auto add = [&](const std::string& service, const YAML::Node& subtree) {
      auto& names = out[dgd + "/" + service];
      names = graph;
      collect(subtree, names);
    };
    if (spec["services"]) {
      for (const auto& entry : spec["services"]) {
        add(entry.first.as<std::string>(), entry.second);
      }
    }
    if (spec["components"]) {
      for (const auto& component : spec["components"]) {
        add(component["name"].as<std::string>(), component);
      }
    }
  }
  return out;
}

}  // namespace icheck::test
