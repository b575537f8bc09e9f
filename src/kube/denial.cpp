#include "kube/denial.hpp"

namespace icheck::kube {
namespace {

bool is_word(char ch) {
  return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
         ch == '_';
}

bool is_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r';
}

std::size_t word_end(std::string_view text, std::size_t at) {
  while (at < text.size() && is_word(text[at]))
    ++at;
  return at;
}

}  // namespace

Denial denial(std::string_view message, std::string_view resource) {
  Denial d;
  constexpr std::string_view user_lead = "User \"";
  if (auto at = message.find(user_lead); at != std::string_view::npos) {
    const auto begin = at + user_lead.size();
    if (auto close = message.find('"', begin); close != std::string_view::npos)
      d.user = std::string(message.substr(begin, close - begin));
  }
  constexpr std::string_view cannot = "cannot ";
  constexpr std::string_view middle = " resource \"";
  for (auto at = message.find(cannot); at != std::string_view::npos;
       at = message.find(cannot, at + 1)) {
    const auto verb = at + cannot.size();
    const auto end = word_end(message, verb);
    if (end == verb || message.substr(end, middle.size()) != middle)
      continue;
    const auto begin = end + middle.size();
    const auto close = message.find('"', begin);
    if (close == std::string_view::npos)
      break;  // no closing quote here, so none after a later `cannot ` either
    const auto what = message.substr(begin, close - begin);
    if (what.empty() || (!resource.empty() && what != resource))
      continue;
    d.verb = std::string(message.substr(verb, end - verb));
    d.resource = std::string(what);
    break;
  }
  return d;
}

std::string word_after(std::string_view text, std::string_view lead) {
  for (auto at = text.find(lead); at != std::string_view::npos; at = text.find(lead, at + 1)) {
    const auto begin = at + lead.size();
    const auto end = word_end(text, begin);
    if (end > begin)
      return std::string(text.substr(begin, end - begin));
  }
  return {};
}

std::string token_between(std::string_view text, std::string_view lead, std::string_view tail) {
  for (auto at = text.find(lead); at != std::string_view::npos; at = text.find(lead, at + 1)) {
    const auto begin = at + lead.size();
    auto end = begin;
    while (end < text.size() && !is_space(text[end]))
      ++end;
    if (end > begin && text.substr(end, tail.size()) == tail)
      return std::string(text.substr(begin, end - begin));
  }
  return {};
}

}  // namespace icheck::kube
