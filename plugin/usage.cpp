#include "usage.hpp"

#include "flags.hpp"
#include "outside/text.hpp"
#include "util/duration.hpp"
#include "util/join.hpp"
#include "util/text.hpp"
#include "words.hpp"

namespace icheck::plugin {
namespace {

bool is_flag(const std::string& word) {
  return word.size() > 1 && word[0] == '-';
}

bool is_help(const std::string& word) {
  return word == "-h" || word == "--help";
}

std::string quoted(const std::string& text) {
  return "\"" + outside::terminal_safe(text) + "\"";
}

// Walks the words once, the way the parser will read them.
class Scan {
public:
  Scan(const CLI::App& app, const std::vector<std::string>& args)
      : app_(app), args_(args), sub_(find_subcommand(app, args)),
        command_at_(sub_ ? first_command_word(app, args) : std::nullopt) {}

  std::optional<UsageError> run() {
    for (i_ = 0; i_ < args_.size(); ++i_) {
      const std::string& word = args_[i_];
      if (word == "--") {
        return extra_words(i_ + 1);
      }
      if (command_at_ && i_ == *command_at_) {
        continue;
      }
      if (!sub_ && !is_flag(word)) {
        return std::nullopt;  // no such command: unknown_command() says so, with suggestions
      }
      auto problem = !is_flag(word)             ? positional(word)
                     : word.rfind("--", 0) == 0 ? long_flag(word)
                                                : short_flags(word);
      if (problem) {
        return problem;
      }
    }
    return missing_positional();
  }

private:
  const CLI::App* scope() const { return command_at_ && i_ > *command_at_ ? sub_ : nullptr; }

  UsageError error(std::string message) const {
    return {std::move(message), scope() ? sub_->get_name() : ""};
  }

  std::optional<UsageError> check_value(const CLI::Option& opt, const std::string& value) const {
    const auto why = invalid_value(opt.get_lnames().front(), value);
    if (!why) {
      return std::nullopt;
    }
    return error("invalid argument " + quoted(value) + " for \"" + flag_label(opt) +
                 "\" flag: " + *why);
  }

  std::optional<UsageError> long_flag(const std::string& word) {
    const auto* opt = find_option(app_, scope(), word);
    const std::string name = word.substr(0, word.find('='));
    if (!opt) {
      return error("unknown flag: " + outside::terminal_safe(name));
    }
    if (!takes_value(*opt)) {
      return std::nullopt;
    }
    if (name.size() < word.size()) {
      return check_value(*opt, word.substr(name.size() + 1));
    }
    if (i_ + 1 >= args_.size()) {
      return error("flag needs an argument: " + name);
    }
    return check_value(*opt, args_[++i_]);
  }

  // "-A", "-nfoo", "-Ao wide": single letters, the first one that takes a value ends the word.
  std::optional<UsageError> short_flags(const std::string& word) {
    for (std::size_t j = 1; j < word.size(); ++j) {
      const std::string letter(1, word[j]);
      const auto* opt = find_option(app_, scope(), "-" + letter);
      if (!opt) {
        return error("unknown shorthand flag: '" + outside::terminal_safe(letter) + "' in " +
                     outside::terminal_safe(word));
      }
      if (!takes_value(*opt)) {
        continue;
      }
      if (j + 1 < word.size()) {
        return check_value(*opt, word.substr(j + 1));
      }
      if (i_ + 1 >= args_.size()) {
        return error("flag needs an argument: '" + letter + "' in " + word);
      }
      return check_value(*opt, args_[++i_]);
    }
    return std::nullopt;
  }

  std::optional<UsageError> positional(const std::string& word) {
    if (sub_ && positional_name(*sub_) != "" && ++positionals_ == 1) {
      return std::nullopt;
    }
    const std::string path = "kubectl dynamo-icheck" + (sub_ ? " " + sub_->get_name() : "");
    return error("unexpected argument " + quoted(word) + " for \"" + path + "\"" +
                 (sub_ && positional_name(*sub_) == "" ? ": it takes no arguments" : ""));
  }

  std::optional<UsageError> extra_words(std::size_t from) {
    for (i_ = from; i_ < args_.size(); ++i_) {
      if (auto problem = positional(args_[i_])) {
        return problem;
      }
    }
    return missing_positional();
  }

  std::optional<UsageError> missing_positional() {
    if (!sub_ || positionals_ > 0 || positional_name(*sub_).empty()) {
      return std::nullopt;
    }
    for (const auto& word : args_) {
      if (is_help(word)) {
        return std::nullopt;
      }
    }
    const auto* arg = sub_->get_option(positional_name(*sub_));
    return UsageError{sub_->get_name() + " needs " + arg->get_name() + ": " +
                          text::lower(arg->get_description()),
                      sub_->get_name()};
  }

  const CLI::App& app_;
  const std::vector<std::string>& args_;
  const CLI::App* sub_;
  std::optional<std::size_t> command_at_;
  std::size_t i_ = 0;
  int positionals_ = 0;
};

}  // namespace

std::optional<UsageError> check_command_line(const CLI::App& app,
                                             const std::vector<std::string>& args) {
  return Scan(app, args).run();
}

std::optional<std::string> invalid_value(const std::string& long_name, const std::string& value) {
  if (const auto choices = flag_choices().find(long_name); choices != flag_choices().end()) {
    for (const auto& c : choices->second) {
      if (c == value) {
        return std::nullopt;
      }
    }
    return "use one of " + join(choices->second, ", ");
  }
  if (long_name == "parallel") {
    const auto n = text::to_int(value);
    return n && *n >= 1 && *n <= 1024 ? std::nullopt
                                      : std::optional<std::string>("use a number from 1 to 1024");
  }
  if (long_name == "timeout" || long_name == "transfer-timeout" || long_name == "matrix-budget") {
    const long long least = long_name == "timeout" ? 1 : 1000;  // ms
    const auto d = parse_duration(value);
    return d && d->count() >= least
               ? std::nullopt
               : std::optional<std::string>(long_name == "timeout"
                                                ? "use a duration such as 30s, 2m or 500ms"
                                                : "use a duration of 1s or more, such as 60s");
  }
  return std::nullopt;
}

UsageError usage_error_of(const CLI::ParseError& e, const CLI::App& app) {
  const auto selected = app.get_subcommands();
  std::string message = outside::terminal_safe(e.what());
  if (!message.empty()) {
    message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
  }
  return {message, selected.empty() ? "" : selected.front()->get_name()};
}

}  // namespace icheck::plugin
