// kubectl-dynamo_icheck: argv parsing and wiring only; every mode lives in src/check.
#include "check/options.hpp"
#include "check/run.hpp"
#include "completion.hpp"
#include "exec/interrupt.hpp"
#include "help.hpp"
#include "kube/flags.hpp"
#include "outside/mask.hpp"
#include "outside/text.hpp"
#include "report/render.hpp"
#include "report/verdict.hpp"
#include "util/duration.hpp"
#include "version.hpp"
#include "words.hpp"

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <unistd.h>

namespace {

constexpr int k_exit_unknown = 3;  // "could not check at all" (DESIGN.md exit codes)

// stderr is a terminal too: what an error quotes (a path, a kubeconfig value, kubectl's
// words) passes the same policy as the report (outside/).
std::string shown(const std::string& text) {
  return icheck::outside::terminal_safe(icheck::outside::mask_secrets(text));
}

struct OutputFlags {
  std::string format = "table";
  std::string color = "auto";
  bool no_headers = false;
};

// Shown as `kubectl dynamo-icheck` when run as a plugin, as krew's guidelines ask.
std::string program_name(const char* argv0) {
  const std::string base = std::filesystem::path(argv0).filename().string();
  return base.rfind("kubectl-", 0) == 0 ? "kubectl dynamo-icheck" : base;
}

void add_kube_flags(CLI::App& app, icheck::kube::KubeFlags& k) {
  const std::string g = "Kubernetes (as kubectl spells them)";
  app.add_option("--kubeconfig", k.kubeconfig, "Path to the kubeconfig file")->group(g);
  app.add_option("--context", k.context, "The kubeconfig context to use")->group(g);
  app.add_option("--cluster", k.cluster, "The kubeconfig cluster to use")->group(g);
  app.add_option("--user", k.user, "The kubeconfig user to use")->group(g);
  app.add_option("-n,--namespace", k.namespace_, "Namespace (default: the context's)")->group(g);
  app.add_flag("-A,--all-namespaces", k.all_namespaces, "Look in every namespace")->group(g);
  app.add_option("--request-timeout", k.request_timeout, "Passed to kubectl")->group(g);
  app.add_option("--as", k.as, "Impersonate this user")->group(g);
  app.add_option("--as-group", k.as_groups, "Impersonate this group (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group(g);
  app.add_option("--as-uid", k.as_uid, "Impersonate this UID")->group(g);
  app.add_option("--token", k.token, "Bearer token (passed to kubectl)")->group(g);
  app.add_option("-s,--server", k.server, "API server address")->group(g);
  // A callback, not a bound optional<bool>: only a flag actually given may reach kubectl.
  app.add_flag_function(
         "--insecure-skip-tls-verify{true}",
         [&k](std::int64_t) { k.insecure_skip_tls_verify = true; }, "Passed to kubectl")
      ->group(g);
  app.add_option("--certificate-authority", k.certificate_authority, "Passed to kubectl")->group(g);
  app.add_option("--client-certificate", k.client_certificate, "Passed to kubectl")->group(g);
  app.add_option("--client-key", k.client_key, "Passed to kubectl")->group(g);
  app.add_option("--tls-server-name", k.tls_server_name, "Passed to kubectl")->group(g);
  app.add_option("--cache-dir", k.cache_dir, "Passed to kubectl")->group(g);
  app.add_option("-v,--v", k.verbosity, "kubectl log verbosity (passed to kubectl)")->group(g);
}

void add_target_flags(CLI::App& app, icheck::check::TargetOptions& t) {
  const std::string g = "Targets";
  app.add_option("--pod", t.pods, "Probe this pod (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group(g);
  app.add_option("-l,--selector", t.selector, "Probe pods matching this label selector")->group(g);
  app.add_option("--deployment", t.deployment, "Probe the pods of this DynamoGraphDeployment")
      ->group(g);
  app.add_option("--recipe", t.recipe, "Probe the deployments a recipe folder defines")->group(g);
  app.add_flag("--local", t.local, "Probe this machine, no cluster")->group(g);
  app.add_flag("--all-components", t.all_components, "Also probe frontend, planner, epp pods")
      ->group(g);
  app.add_option("-c,--container", t.container, "Container to probe (default main)")->group(g);
}

void add_run_flags(CLI::App& app, icheck::check::Options& o, std::string& timeout) {
  const std::string g = "Running";
  app.add_option("--parallel", o.run.parallel, "Pods probed at once")
      ->check(CLI::Range(1, 1024))->group(g);
  app.add_option("--timeout", timeout, "Deadline per pod, e.g. 30s")->group(g);
}

void add_output_flags(CLI::App& app, OutputFlags& out) {
  const std::string g = "Output";
  app.add_option("-o,--output", out.format, "table|wide|json|yaml")
      ->check(CLI::IsMember({"table", "wide", "json", "yaml"}))->group(g);
  app.add_option("--color", out.color, "auto|always|never (auto: a terminal and no NO_COLOR)")
      ->check(CLI::IsMember({"auto", "always", "never"}))->group(g);
  app.add_flag("--no-headers", out.no_headers, "Tables without their column headings")->group(g);
}

// nixl and all run the same opt-in transfer test.
void add_transfer_flags(CLI::App* mode, icheck::check::Options& o, std::string& transfer_timeout) {
  mode->add_flag("--transfer", o.transfer, "Run the pairwise transfer test (loads the fabric)");
  mode->add_option("--pair", o.pair, "PREFILL_POD,DECODE_POD for --transfer");
  mode->add_option("--pairs", o.pairs,
                   "Which pairs --transfer tests: cover (every node once, the default) or all "
                   "(every prefill node x decode node)")
      ->check(CLI::IsMember({"cover", "all"}));
  mode->add_option("--test-image", o.test_image,
                   "Image with nixlbench or ucx_perftest for the kubectl debug commands printed "
                   "when the pods' own image has none");
  mode->add_option("--transfer-timeout", transfer_timeout, "Limit of each side of the test");
}

void add_modes(CLI::App& app, icheck::check::Options& o, std::string& transfer_timeout) {
  auto* env = app.add_subcommand("env", "Transport settings in a recipe (and, --live, in the pods)");
  env->add_option("PATH", o.path, "Recipe mode folder or one manifest file")->required();
  env->add_flag("--recursive", o.recursive, "Also read nested variant folders");
  env->add_flag("--live", o.live, "Compare with the env of the running pods");
  app.add_subcommand("node", "RDMA, GPUDirect, NVLink and UCX inside each worker pod");
  auto* nixl = app.add_subcommand("nixl", "NIXL install, plugins, test tools; the next command");
  add_transfer_flags(nixl, o, transfer_timeout);
  auto* all = app.add_subcommand("all", "env + node + nixl on the deployment made from a recipe");
  all->add_option("RECIPE_DIR", o.path, "Recipe mode folder")->required();
  add_transfer_flags(all, o, transfer_timeout);
  app.add_subcommand("version", "Print the version, commit and the libraries it was built with");
}

bool use_color(const std::string& mode) {
  if (mode != "auto") {
    return mode == "always";
  }
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return isatty(STDOUT_FILENO) && !(no_color && *no_color) && !(term && std::string(term) == "dumb");
}

icheck::report::Format format_of(const std::string& name) {
  using icheck::report::Format;
  return name == "wide" ? Format::wide : name == "json" ? Format::json
                                       : name == "yaml" ? Format::yaml
                                                        : Format::table;
}

// `__complete WORDS...` for kubectl_complete-dynamo_icheck. Cluster names are looked up with the
// kubectl flags already on the line (-n, --context, --kubeconfig), parsed as a run would.
int complete(CLI::App& app, std::vector<std::string> words, icheck::check::Options& options) {
  auto lookup = [&](icheck::check::NameKind kind, const std::string& deployment) {
    std::vector<std::string> typed(words.begin(), words.end() - 1);
    if (!typed.empty() && icheck::plugin::wants_value(app, nullptr, typed.back())) {
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

// What is answered before parsing: usage for no arguments, completion, a mistyped subcommand.
std::optional<int> answer_early(CLI::App& app, const std::vector<std::string>& args,
                                icheck::check::Options& options) {
  if (args.empty()) {  // usage, and exit 3: a bare call in a CI gate must not pass
    std::cerr << app.help();
    return k_exit_unknown;
  }
  if (args.front() == "__complete") {
    return complete(app, {args.begin() + 1, args.end()}, options);
  }
  if (const auto unknown = icheck::plugin::unknown_command(app, args)) {
    std::cerr << *unknown;
    return k_exit_unknown;
  }
  return std::nullopt;
}

int run(int argc, char** argv) {
  icheck::check::Options options;
  OutputFlags output;
  std::string timeout = "30s";
  std::string transfer_timeout = "60s";
  CLI::App app{"Proves, read-only, whether the KV-cache transport of NVIDIA Dynamo's disaggregated "
               "serving (NIXL over UCX over RDMA/NVLink) works in every worker pod.",
               program_name(argv[0])};
  std::string version = icheck::plugin::version_text();
  version.pop_back();  // CLI11 ends the flag's text with its own newline
  app.set_version_flag("--version", version);
  app.require_subcommand(1, 1);
  // Before the subcommands exist: each copies its parent's formatter when it is made.
  app.formatter(
      std::make_shared<icheck::plugin::HelpFormatter>(icheck::plugin::subcommand_examples()));
  app.fallthrough();
  add_kube_flags(app, options.kube);
  add_target_flags(app, options.targets);
  add_run_flags(app, options, timeout);
  add_output_flags(app, output);
  add_modes(app, options, transfer_timeout);

  std::vector<std::string> args(argv + 1, argv + argc);
  if (const auto answered = answer_early(app, args, options)) {
    return *answered;
  }
  args = icheck::kube::normalize_kubectl_argv(std::move(args));
  std::reverse(args.begin(), args.end());  // CLI11 takes a reversed vector
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : k_exit_unknown;
  }
  options.mode = app.get_subcommands().front()->get_name();
  if (options.mode == "version") {
    std::cout << icheck::plugin::version_text();
    return 0;
  }
  const auto deadline = icheck::parse_duration(timeout);
  if (!deadline || deadline->count() <= 0) {
    std::cerr << "error: invalid --timeout \"" << shown(timeout) << "\": use e.g. 30s, 2m, 500ms\n";
    return k_exit_unknown;
  }
  options.run.timeout = *deadline;
  const auto transfer_deadline = icheck::parse_duration(transfer_timeout);
  if (!transfer_deadline || transfer_deadline->count() < 1000) {
    std::cerr << "error: invalid --transfer-timeout \"" << shown(transfer_timeout) << "\": use e.g. 60s\n";
    return k_exit_unknown;
  }
  options.transfer_timeout = *transfer_deadline;
  options.run.progress = isatty(STDERR_FILENO);

  icheck::exec::install_interrupt_handlers();
  auto report = icheck::check::run_mode(options);
  const int interrupted_by = icheck::exec::interrupt_signal();
  if (!report) {
    // kubeconfig errors arrive worded exactly as kubectl prints them, prefix included.
    const auto& message = report.error().message;
    const bool prefixed = message.rfind("error: ", 0) == 0 || message.rfind("Error", 0) == 0;
    std::cerr << (prefixed ? "" : "error: ") << shown(message) << "\n";
    return interrupted_by != 0 ? 128 + interrupted_by : k_exit_unknown;
  }
  if (interrupted_by != 0) report->interrupted = interrupted_by == SIGTERM ? "SIGTERM" : "SIGINT";
  const auto verdict = icheck::report::decide(*report);
  std::cout << icheck::report::render(*report, verdict,
                                      {format_of(output.format), use_color(output.color),
                                       output.no_headers, options.kube.all_namespaces});
  std::cout.flush();
  // 128 + signal, as a shell reports a command the signal ended (130 SIGINT, 143 SIGTERM).
  return interrupted_by != 0 ? 128 + interrupted_by : icheck::report::exit_code(verdict.status);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // the one top-level catch: a bug, said plainly, exit 3
    std::cerr << "error: internal: " << shown(e.what()) << "\n";
    return k_exit_unknown;
  }
}
