#include "probe/logs/pod_events.hpp"

#include "probe/logs/log_lines.hpp"

#include <boost/json.hpp>

namespace icheck::probe {
namespace json = boost::json;
namespace {

std::string text_at(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
}

const json::object* child(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v != nullptr ? v->if_object() : nullptr;
}

long count_at(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v != nullptr && v->is_int64() && v->as_int64() > 0 ? static_cast<long>(v->as_int64()) : 0;
}

PodEvent read_event(const json::object& e) {
  PodEvent event;
  event.type = text_at(e, "type");
  event.reason = text_at(e, "reason");
  event.message = judged_text(text_at(e, "message"));
  const auto* series = child(e, "series");
  const long count = series != nullptr ? count_at(*series, "count") : count_at(e, "count");
  event.count = count > 0 ? count : 1;
  for (const auto& t :
       {series != nullptr ? text_at(*series, "lastObservedTime") : std::string(),
        text_at(e, "lastTimestamp"), text_at(e, "eventTime"), text_at(e, "firstTimestamp")}) {
    if (!t.empty()) {
      event.time = t;
      break;
    }
  }
  if (const auto* object = child(e, "involvedObject"))
    event.object = text_at(*object, "kind") + "/" + text_at(*object, "name");
  return event;
}

}  // namespace

Expected<std::vector<PodEvent>> parse_events_json(std::string_view text) {
  boost::system::error_code ec;
  auto document = json::parse(text, ec);
  if (ec)
    return Error{"the events list is not JSON: " + ec.message()};
  const auto* root = document.if_object();
  const auto* items = root != nullptr ? root->if_contains("items") : nullptr;
  if (items == nullptr || !items->is_array())
    return Error{"the events answer holds no items list"};
  std::vector<PodEvent> events;
  for (const auto& item : items->as_array()) {
    if (const auto* e = item.if_object())
      events.push_back(read_event(*e));
  }
  return events;
}

}  // namespace icheck::probe
