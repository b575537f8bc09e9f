#include "recipe/image_version.hpp"

#include <array>
#include <cctype>

namespace icheck::recipe {

std::optional<std::pair<std::string, std::string>> image_version(std::string_view image) {
  if (auto at = image.find('@'); at != std::string_view::npos)
    image = image.substr(0, at);  // a digest after the tag: the tag still names the version
  const auto colon = image.rfind(':');
  if (colon == std::string_view::npos || image.find('/', colon) != std::string_view::npos)
    return std::nullopt;  // no tag (a registry port is followed by a '/')
  const std::string_view repo = image.substr(0, colon);
  std::string_view tag = image.substr(colon + 1);
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 3> known{{
      {"vllm/vllm-openai", "vllm"},
      {"lmsysorg/sglang", "sglang"},
      {"nvcr.io/nvidia/tensorrt-llm/release", "tensorrt_llm"},
  }};
  for (const auto& [name, lib] : known) {
    const bool same = repo == name || (repo.size() > name.size() && repo.ends_with(name) &&
                                       repo[repo.size() - name.size() - 1] == '/');
    if (!same)
      continue;
    if (tag.starts_with("v"))
      tag.remove_prefix(1);
    // The version: digits and dots, then an optional rc/post suffix; a variant after '-'
    // (v0.5.3-cu129) is not part of it.
    std::size_t end = 0;
    while (end < tag.size() &&
           (std::isdigit(static_cast<unsigned char>(tag[end])) || tag[end] == '.'))
      ++end;
    if (end == 0 || tag.find('.') == std::string_view::npos || tag.find('.') >= end)
      return std::nullopt;  // "latest", "nightly": no version
    while (end < tag.size() && std::isalnum(static_cast<unsigned char>(tag[end])))
      ++end;
    return std::pair{std::string(lib), std::string(tag.substr(0, end))};
  }
  return std::nullopt;
}

}  // namespace icheck::recipe
