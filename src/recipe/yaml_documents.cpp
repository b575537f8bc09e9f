#include "recipe/yaml_documents.hpp"

#include <istream>
#include <optional>
#include <streambuf>
#include <string>
#include <yaml-cpp/eventhandler.h>

namespace icheck::recipe::detail {

namespace {

// The manifest's bytes as a stream without copying them: both passes read the one buffer the
// file was read into (an istringstream, and LoadAll(string), would each hold another copy).
class ViewBuffer : public std::streambuf {
public:
  explicit ViewBuffer(std::string_view text) {
    char* begin = const_cast<char*>(text.data());  // only ever read
    setg(begin, begin, begin + text.size());
  }
};

// Records where a document starts; every other event is ignored.
class DocumentStart : public YAML::EventHandler {
public:
  std::optional<YAML::Mark> mark;

  void OnDocumentStart(const YAML::Mark& m) override { mark = m; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

Error stuck_error(const YAML::Mark& at) {
  return Error{std::to_string(at.line + 1) + ":" + std::to_string(at.column + 1) +
               ": the YAML reader cannot get past this point (a token no document can start "
               "with, such as a stray ','); the file is not read"};
}

Error too_many_error(const YAML::Mark& at, std::size_t cap) {
  return Error{std::to_string(at.line + 1) + ": more than " + std::to_string(cap) +
               " YAML documents (a recipe's manifest holds a few); the file is not read"};
}

// Why the documents must not be built, if so: the reader stops making progress (a document
// starting where the previous one did), or there are more than `cap`. A pass over the events
// only, no nodes built, that stops at the first problem.
std::optional<Error> refuse(std::string_view text, std::size_t cap) {
  ViewBuffer buffer(text);
  std::istream stream(&buffer);
  YAML::Parser parser(stream);
  std::optional<int> previous_start;
  for (std::size_t count = 0;; ++count) {
    DocumentStart start;
    if (!parser.HandleNextDocument(start)) {
      return std::nullopt;
    }
    if (!start.mark || (previous_start && start.mark->pos <= *previous_start)) {
      return stuck_error(start.mark.value_or(YAML::Mark()));
    }
    if (count == cap) {
      return too_many_error(*start.mark, cap);
    }
    previous_start = start.mark->pos;
  }
}

}  // namespace

Expected<std::vector<YAML::Node>> load_documents(std::string_view text, std::size_t cap) {
  if (auto refused = refuse(text, cap)) {
    return *refused;
  }
  ViewBuffer buffer(text);
  std::istream stream(&buffer);
  return YAML::LoadAll(stream);
}

}  // namespace icheck::recipe::detail
