// kubectl-dynamo_icheck: argv parsing and wiring only; every mode lives in src/check.
#include "check/options.hpp"
#include "check/run.hpp"
#include "completion.hpp"
#include "errors.hpp"
#include "exec/interrupt.hpp"
#include "flags.hpp"
#include "help.hpp"
#include "kube/flags.hpp"
#include "report/render.hpp"
#include "report/verdict.hpp"
#include "usage.hpp"
#include "util/duration.hpp"
#include "util/signal_name.hpp"
#include "version.hpp"
#include "words.hpp"
#include "wrap.hpp"

#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <unistd.h>

namespace {

using icheck::plugin::k_exit_unknown;

// Shown as `kubectl dynamo-icheck` when run as a plugin, as krew's guidelines ask.
std::string program_name(const char* argv0) {
  const std::string base = std::filesystem::path(argv0).filename().string();
  return base.rfind("kubectl-", 0) == 0 ? "kubectl dynamo-icheck" : base;
}

bool use_color(const std::string& mode) {
  if (mode != "auto") {
    return mode == "always";
  }
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return isatty(STDOUT_FILENO) && !(no_color && *no_color) &&
         !(term && std::string(term) == "dumb");
}

icheck::report::Format format_of(const std::string& name) {
  using icheck::report::Format;
  return name == "wide"   ? Format::wide
         : name == "json" ? Format::json
         : name == "yaml" ? Format::yaml
                          : Format::table;
}

// `__complete WORDS...` for kubectl_complete-dynamo_icheck. Cluster names are looked up with the
// kubectl flags already on the line (-n, --context, --kubeconfig), parsed as a run would.
int complete(CLI::App& app, std::vector<std::string> words, icheck::check::Options& options) {
  auto lookup = [&](icheck::check::NameKind kind, const std::string& deployment) {
    std::vector<std::string> typed(words.begin(), words.end() - 1);
    const CLI::App* sub = icheck::plugin::find_subcommand(app, typed);
    if (!typed.empty() && icheck::plugin::wants_value(app, sub, typed.back())) {
      typed.pop_back();  // the flag whose value is being completed
    }
    typed = icheck::kube::normalize_kubectl_argv(std::move(typed));
    std::reverse(typed.begin(), typed.end());
    try {
      app.parse(typed);
    } catch (const CLI::Error&) {  // half a command line: the flags given so far are set
    }
    return icheck::check::cluster_names(options.kube, kind, deployment);
  };
  if (words.empty()) {
    words.emplace_back();
  }
  std::cout << icheck::plugin::render_completion(icheck::plugin::complete(app, words, lookup));
  return 0;
}

// What is answered before parsing: the help for no command (stdout, exit 0, as kubectl does),
// completion, a mistyped command, any other mistake on the line.
std::optional<int> answer_early(CLI::App& app, const std::vector<std::string>& args,
                                icheck::check::Options& options) {
  if (!args.empty() && args.front() == "__complete") {
    return complete(app, {args.begin() + 1, args.end()}, options);
  }
  if (const auto mistake = icheck::plugin::check_command_line(app, args)) {
    return icheck::plugin::print_usage_error(mistake->message, mistake->command);
  }
  if (const auto unknown = icheck::plugin::unknown_command(app, args)) {
    return icheck::plugin::print_usage_error(*unknown, "");
  }
  if (!icheck::plugin::first_command_word(app, args) &&
      std::find(args.begin(), args.end(), "--version") == args.end()) {
    std::cout << icheck::plugin::help_text(app, icheck::plugin::terminal_width(STDOUT_FILENO));
    return 0;
  }
  return std::nullopt;
}

// The durations, checked before parsing (usage.cpp): here only converted.
void set_durations(icheck::plugin::CommandLine& line) {
  line.options.run.timeout =
      icheck::parse_duration(line.timeout).value_or(line.options.run.timeout);
  line.options.transfer_timeout =
      icheck::parse_duration(line.transfer_timeout).value_or(line.options.transfer_timeout);
  line.options.matrix_budget =
      icheck::parse_duration(line.matrix_budget).value_or(line.options.matrix_budget);
  line.options.run.progress = isatty(STDERR_FILENO);
}

// Stdout takes one Report: the run's, or the one a second signal prints (whoever comes first).
bool claim_stdout() {
  static std::atomic<bool> claimed{false};
  return !claimed.exchange(true);
}

// --transport, else $DYNAMO_ICHECK_TRANSPORT (a session or a test run picks kubectl), else proxy;
// false for an environment value that is neither.
bool set_transport(icheck::plugin::CommandLine& line) {
  std::string chosen = line.transport;
  if (chosen.empty()) {
    const char* env = std::getenv("DYNAMO_ICHECK_TRANSPORT");
    chosen = env != nullptr && *env != '\0' ? env : "proxy";
  }
  if (chosen != "proxy" && chosen != "kubectl")
    return false;
  line.options.run.transport =
      chosen == "kubectl" ? icheck::check::Transport::kubectl : icheck::check::Transport::proxy;
  return true;
}

int run(int argc, char** argv) {
  icheck::plugin::CommandLine line;
  auto& options = line.options;
  CLI::App app{"Proves, read-only, whether the KV-cache transport of NVIDIA Dynamo's disaggregated "
               "serving (NIXL over UCX over RDMA/NVLink) works in every worker pod",
               program_name(argv[0])};
  std::string version = icheck::plugin::version_text();
  version.pop_back();  // CLI11 ends the flag's text with its own newline
  app.set_version_flag("--version", version);
  app.require_subcommand(1, 1);
  // Before the subcommands exist: each copies its parent's formatter when it is made.
  app.formatter(std::make_shared<icheck::plugin::HelpFormatter>(
      icheck::plugin::terminal_width(STDOUT_FILENO)));
  app.fallthrough();
  icheck::plugin::add_commands(app, line);

  std::vector<std::string> args(argv + 1, argv + argc);
  args = icheck::kube::normalize_kubectl_argv(std::move(args));
  if (const auto answered = answer_early(app, args, options)) {
    return *answered;
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes a reversed vector
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help, --version
      return app.exit(e);
    }
    const auto mistake = icheck::plugin::usage_error_of(e, app);
    return icheck::plugin::print_usage_error(mistake.message, mistake.command);
  }
  options.mode = app.get_subcommands().front()->get_name();
  if (options.mode == "version") {
    std::cout << icheck::plugin::version_text();
    return 0;
  }
  if (options.mode == "options") {
    std::cout << icheck::plugin::global_options_text(app,
                                                     icheck::plugin::terminal_width(STDOUT_FILENO));
    return 0;
  }
  set_durations(line);
  const auto format = format_of(line.format);
  const auto style = [&] {
    return icheck::report::RenderOptions{format, use_color(line.color), line.no_headers,
                                         options.kube.all_namespaces,
                                         icheck::plugin::detail_width(STDOUT_FILENO)};
  };
  icheck::report::Report report;
  if (!set_transport(line)) {
    report.mode = options.mode;
    report.stopped = "invalid DYNAMO_ICHECK_TRANSPORT: use proxy or kubectl";
    report.errors.push_back(report.stopped);
  } else {
    // A second signal stops at once, and still prints one Report (what it can know: nothing
    // gathered), unless the run's own Report is being printed already.
    icheck::exec::on_second_interrupt([&](int second) {
      icheck::exec::kill_running_groups();  // nothing is left running, not even a TERM-deaf child
      if (!claim_stdout())
        return;
      icheck::report::Report cut;
      cut.mode = options.mode;
      cut.context = options.kube.context.value_or("");
      cut.namespace_ = options.kube.namespace_.value_or("");
      cut.interrupted = icheck::signal_name(icheck::exec::interrupt_signal());
      cut.errors.push_back("interrupted again by " + icheck::signal_name(second) +
                           ": stopped at once, nothing gathered is shown");
      std::cout << icheck::report::render(cut, icheck::report::decide(cut), style());
      std::cout.flush();
      std::_Exit(128 + second);
    });
    report = icheck::check::run_mode(options);
  }
  if (!claim_stdout()) {
    for (;;)
      ::pause();  // the second signal's Report is being printed; it ends the process
  }
  const int interrupted_by = icheck::exec::interrupt_signal();
  if (interrupted_by != 0) {
    report.interrupted = icheck::signal_name(interrupted_by);
    ::signal(SIGPIPE, SIG_IGN);  // a closed terminal or ssh session: still exit 128 + signal
  }
  // 128 + signal, as a shell reports a command the signal ended (130 SIGINT, 143 SIGTERM).
  const auto exit_with = [&](int code) {
    return interrupted_by != 0 ? 128 + interrupted_by : code;
  };
  if (!report.stopped.empty()) {
    icheck::plugin::print_error(report.stopped);
    if (format != icheck::report::Format::json && format != icheck::report::Format::yaml) {
      return exit_with(k_exit_unknown);  // a table has nothing to show; the line above says why
    }
  }
  const auto verdict = icheck::report::decide(report);
  std::cout << icheck::report::render(report, verdict, style());
  std::cout.flush();
  return exit_with(icheck::report::exit_code(verdict.status));
}

}  // namespace

int main(int argc, char** argv) {
  icheck::exec::install_interrupt_handlers();  // before any file is read or child started
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // the one top-level catch: a bug, said plainly, exit 3
    return icheck::plugin::print_error("internal: " + std::string(e.what()));
  }
}
