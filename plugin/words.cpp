#include "words.hpp"

namespace icheck::plugin {

const CLI::Option* find_option(const CLI::App& app, const CLI::App* sub, const std::string& word) {
  if (word.size() < 2 || word[0] != '-') {
    return nullptr;
  }
  const std::string name = word.substr(0, word.find('='));
  if (sub) {
    if (const auto* opt = sub->get_option_no_throw(name)) {
      return opt;
    }
  }
  return app.get_option_no_throw(name);
}

bool takes_value(const CLI::Option& opt) {
  return opt.get_expected_max() > 0 && opt.get_type_size_max() > 0;
}

bool wants_value(const CLI::App& app, const CLI::App* sub, const std::string& word) {
  const auto* opt = find_option(app, sub, word);
  const bool glued =
      word.find('=') != std::string::npos || (word.size() > 2 && word[1] != '-');  // -nfoo
  return opt && takes_value(*opt) && !glued;
}

std::optional<std::size_t> first_command_word(const CLI::App& app,
                                              const std::vector<std::string>& words) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i].empty() || words[i][0] != '-') {
      return i;
    }
    if (wants_value(app, nullptr, words[i])) {
      ++i;  // the flag's value
    }
  }
  return std::nullopt;
}

const CLI::App* find_subcommand(const CLI::App& app, const std::vector<std::string>& words) {
  const auto i = first_command_word(app, words);
  if (!i) {
    return nullptr;
  }
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == words[*i]) {
      return sub;
    }
  }
  return nullptr;
}

}  // namespace icheck::plugin

namespace icheck::plugin {

std::string flag_label(const CLI::Option& opt) {
  std::string names;
  for (const auto& s : opt.get_snames()) {
    names += "-" + s + ", ";
  }
  return names + "--" + opt.get_lnames().front();
}

}  // namespace icheck::plugin
