#include "recipe/load.hpp"
#include "recipe/services.hpp"
#include "recipe/yaml_documents.hpp"
#include "recipe/yaml_read.hpp"

namespace icheck::recipe {

namespace {

constexpr std::string_view dgd_kind = "DynamoGraphDeployment";

Expected<Deployment> parse_deployment(const YAML::Node& doc) {
  Deployment dgd;
  dgd.name = detail::scalar(detail::child(detail::child(doc, "metadata"), "name"));
  dgd.api_version = detail::scalar(detail::child(doc, "apiVersion"));
  dgd.line = detail::line_of(doc);
  const YAML::Node spec = detail::child(doc, "spec");
  if (dgd.api_version == "nvidia.com/v1alpha1") {
    dgd.services = detail::parse_v1alpha1_services(spec);
  } else if (dgd.api_version == "nvidia.com/v1beta1") {
    dgd.services = detail::parse_v1beta1_components(spec);
  } else {
    return Error{std::to_string(dgd.line) + ": DynamoGraphDeployment " + dgd.name +
                 " has apiVersion '" + dgd.api_version +
                 "' (known: nvidia.com/v1alpha1, nvidia.com/v1beta1)"};
  }
  return dgd;
}

// Reads every document; the first problem stops the file (its later documents are unreliable).
std::optional<std::string> read_documents(const std::vector<YAML::Node>& docs, ManifestFile& file) {
  for (const auto& doc : docs) {
    if (!detail::present(doc)) {
      continue;  // an empty document between `---` separators
    }
    if (!doc.IsMap()) {
      return std::to_string(detail::line_of(doc)) +
             ": not a Kubernetes manifest (a document that is not a mapping)";
    }
    const std::string kind = detail::scalar(detail::child(doc, "kind"));
    if (kind != dgd_kind) {
      const std::string name = detail::scalar(detail::child(detail::child(doc, "metadata"), "name"));
      if (kind == "ConfigMap") {
        file.config_maps[name] = detail::string_map(detail::child(doc, "data"));
      }
      if (kind == "ComputeDomain") {
        const auto channel = detail::child(detail::child(doc, "spec"), "channel");
        file.compute_domain_templates.push_back(
            detail::scalar(detail::child(detail::child(channel, "resourceClaimTemplate"), "name")));
      }
      file.other_kinds.push_back((kind.empty() ? "(no kind)" : kind) + "/" + name);
      continue;
    }
    auto dgd = parse_deployment(doc);
    if (!dgd) {
      return dgd.error().message;
    }
    file.deployments.push_back(std::move(*dgd));
  }
  return std::nullopt;
}

bool has_compute_domain(const ManifestFile& file) {
  for (const auto& other : file.other_kinds) {
    if (other.starts_with("ComputeDomain/")) {
      return true;
    }
  }
  return false;
}

}  // namespace

ManifestFile parse_manifest(std::string_view text, const std::string& display_name) {
  ManifestFile file;
  file.display_name = display_name;
  if (text.find('\0') != std::string_view::npos) {
    file.error = display_name + ": not a YAML file (binary content)";
    return file;
  }
  try {
    const auto documents = detail::load_documents(text);
    const auto problem =
        documents ? read_documents(*documents, file) : std::optional(documents.error().message);
    if (problem) {
      file.error = display_name + ":" + *problem;
    }
  } catch (const YAML::Exception& e) {
    file.error = display_name + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg;
  }
  if (file.error) {
    file.deployments.clear();
  }
  detail::resolve_engine_configs(file);
  const bool compute_domain = has_compute_domain(file);
  for (auto& dgd : file.deployments) {
    dgd.compute_domain_in_file = compute_domain;
    for (auto& service : dgd.services) {
      service.imex_channel = detail::holds_imex_channel(service, file.compute_domain_templates);
    }
  }
  return file;
}

}  // namespace icheck::recipe
