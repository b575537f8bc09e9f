#include "stream/status.hpp"

#include <array>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <charconv>

namespace icheck::stream {
namespace {

namespace json = boost::json;

std::string field(const json::object& o, std::string_view name) {
  const auto* v = o.if_contains(name);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

// The ExitCode cause's message as a uint8, like strconv.ParseUint(msg, 10, 8); -1 if none.
int exit_code_cause(const json::object& status) {
  const auto* details = status.if_contains("details");
  const auto* causes =
      details && details->is_object() ? details->as_object().if_contains("causes") : nullptr;
  if (!causes || !causes->is_array())
    return -1;
  for (const auto& c : causes->as_array()) {
    if (!c.is_object() || field(c.as_object(), "reason") != "ExitCode")
      continue;
    const auto text = field(c.as_object(), "message");
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc() && end == text.data() + text.size() && value <= 255)
      return static_cast<int>(value);
  }
  return -1;
}

const json::object* as_status(const json::value& v) {
  if (!v.is_object() || field(v.as_object(), "kind") != "Status")
    return nullptr;
  return &v.as_object();
}

// 400 answers of the apiserver's exec admission that kubectl ends with as well.
bool final_bad_request(std::string_view message) {
  static constexpr std::array<std::string_view, 5> known = {
      "is not valid for pod", "a container name must be specified", "does not have a host assigned",
      "cannot exec into a container in a completed pod", "you must specify at least 1 command"};
  for (const auto k : known) {
    if (message.find(k) != std::string_view::npos)
      return true;
  }
  return false;
}

std::string first_line(std::string_view body) {
  const auto text = body.substr(0, body.find('\n'));
  return std::string(text.substr(0, 200));
}

}  // namespace

StatusEnd status_end(std::string_view status_json) {
  if (status_json.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return {};
  boost::system::error_code ec;
  const auto v = json::parse(status_json, ec);
  if (ec || !v.is_object())
    return {1, "error: unreadable exec status: " + first_line(status_json) + "\n"};
  const auto& status = v.as_object();
  if (field(status, "status") == "Success")
    return {};
  if (field(status, "reason") == "NonZeroExitCode") {
    if (const int rc = exit_code_cause(status); rc >= 0)
      return {rc, "command terminated with exit code " + std::to_string(rc) + "\n"};
  }
  return {1, "error: " + field(status, "message") + "\n"};
}

bool status_complete(std::string_view status_json) {
  boost::system::error_code ec;
  const auto v = json::parse(status_json, ec);
  return !ec && v.is_object();
}

Declined declined(int http_status, std::string_view body) {
  boost::system::error_code ec;
  const auto v = json::parse(body, ec);
  const auto* status = ec ? nullptr : as_status(v);
  const std::string prefix = "HTTP " + std::to_string(http_status);
  if (!status)
    return {false, prefix + ": " + first_line(body)};
  const auto reason = field(*status, "reason");
  const auto message = field(*status, "message");
  // Before 1.30 the WebSocket GET is authorized with the get verb; kubectl's SPDY POST (create)
  // may still be allowed.
  const bool get_verb = message.find("cannot get resource \"pods/exec\"") != std::string::npos;
  const bool known = (http_status == 403 && !get_verb) || http_status == 401 ||
                     http_status == 404 || (http_status == 400 && final_bad_request(message)) ||
                     (http_status >= 500 && !reason.empty());
  if (!known)
    return {false, prefix + ": " + message};
  return {true, "Error from server (" + (reason.empty() ? prefix : reason) + "): " + message};
}

}  // namespace icheck::stream
