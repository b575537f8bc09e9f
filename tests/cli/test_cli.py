"""The plugin binary's contract: exit codes per verdict and per bad input, flag spellings,
help, output formats, colour. Needs no cluster (env mode, node --local and argument errors only).

ICHECK_PLUGIN points at the built kubectl-dynamo_icheck (CTest passes it).
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

PLUGIN = os.environ.get("ICHECK_PLUGIN", "build/kubectl-dynamo_icheck")
TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECIPES = os.path.join(TESTS, "recipes")
sys.path.insert(0, os.path.join(TESTS, "schema"))
import schema_check  # noqa: E402

DISAGG_UCX_TCP_ONLY = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata: {name: tcp-only}
spec:
  components:
  - name: prefill
    type: prefill
    replicas: 2
    podTemplate: {spec: {containers: [{name: main,
      env: [{name: UCX_TLS, value: "tcp,cuda_copy"}, {name: HF_TOKEN, value: hf_abcdefsecret}],
      resources: {limits: {nvidia.com/gpu: "8", rdma/ib: "8"}},
      securityContext: {capabilities: {add: [IPC_LOCK]}}}]}}
  - name: decode
    type: decode
    replicas: 2
    podTemplate: {spec: {containers: [{name: main,
      env: [{name: UCX_TLS, value: "tcp,cuda_copy"}],
      resources: {limits: {nvidia.com/gpu: "8", rdma/ib: "8"}},
      securityContext: {capabilities: {add: [IPC_LOCK]}}}]}}
"""


def run(*args, env=None):
    e = dict(os.environ)
    e.pop("NO_COLOR", None)
    e.pop("COLUMNS", None)  # help wraps at 80 off a terminal; a shell may export its width
    e.update(env or {})
    p = subprocess.run([PLUGIN, *args], capture_output=True, text=True, env=e, timeout=60)
    fmt = schema_check.output_format(args)
    if fmt and p.stdout.strip():  # every report a test makes follows docs/report-v1.schema.json
        schema_check.check_report(p.stdout, fmt)
    return p.returncode, p.stdout, p.stderr


def recipe(*parts):
    return os.path.join(RECIPES, *parts)


class LiveSuggestion(unittest.TestCase):
    """The printed `env --live` finds the same manifests: the path, and --recursive when needed."""

    def live_steps(self, *args):
        rc, out, err = run("env", *args, "-o", "json")
        doc = json.loads(out)
        steps = [ch.get("next", "") for t in doc["targets"] for ch in t["checks"]]
        steps += doc["verdict"]["limitations"]
        return [s[s.index("kubectl dynamo-icheck env --live"):] for s in steps
                if "kubectl dynamo-icheck env --live" in s]

    def test_a_reference_names_the_folder(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "deploy.yaml"), "w") as f:
                f.write(DISAGG_UCX_TCP_ONLY.replace('{name: UCX_TLS, value: "tcp,cuda_copy"}',
                                                    "{name: UCX_TLS, valueFrom: {configMapKeyRef: {name: ucx, key: tls}}}", 1))
            # the prefill UCX_TLS finding and the verdict's limitation
            self.assertEqual(self.live_steps(d), ["kubectl dynamo-icheck env --live " + d] * 2)

    def test_recursive_is_repeated(self):
        folder = recipe("llama-3-70b")
        self.assertEqual(set(self.live_steps(folder, "--recursive")),
                         {"kubectl dynamo-icheck env --live %s --recursive" % folder})
        single = recipe("llama-3-70b", "vllm", "agg")
        self.assertEqual(set(self.live_steps(single)), {"kubectl dynamo-icheck env --live " + single})


class ExitCodes(unittest.TestCase):
    def test_surface_ok_is_0(self):
        rc, out, _ = run("env", recipe("deepseek-v4", "deepseek-v4-flash", "vllm", "disagg-h200-agentic"))
        self.assertEqual(rc, 0, out)
        self.assertIn("VERDICT  surface-ok", out)

    def test_unconfirmed_is_1(self):
        rc, out, _ = run("env", recipe("llama-3-70b", "vllm", "disagg-multi-node"))
        self.assertEqual(rc, 1, out)
        self.assertIn("VERDICT  unconfirmed  at env", out)

    def test_blocked_is_2_and_secret_masked(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "deploy.yaml"), "w") as f:
                f.write(DISAGG_UCX_TCP_ONLY)
            rc, out, err = run("env", d, "-o", "wide")
        self.assertEqual(rc, 2, out + err)
        self.assertIn("VERDICT  blocked  at env", out)
        self.assertNotIn("hf_abcdefsecret", out + err)

    def test_aggregated_is_surface_ok_and_says_kv_never_moves(self):
        rc, out, _ = run("env", recipe("llama-3-70b", "vllm", "agg"), "-o", "json")
        doc = json.loads(out)
        self.assertEqual(doc["verdict"]["status"], "surface-ok")
        self.assertTrue(any("not exercised" in l for l in doc["verdict"]["limitations"]))
        self.assertEqual(rc, 0)


# synthetic: a v1beta1 DynamoGraphDeployment as the recipes in tests/recipes spell it, whose
# transport variables carry one secret shape each (issue 21).
SECRET_SHAPES = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata: {name: secret-shapes}
spec:
  components:
  - name: prefill
    type: prefill
    replicas: 1
    podTemplate: {spec: {containers: [{name: main,
      env: [{name: UCX_TLS, value: "rc,cuda_copy"},
            {name: NIXL_ETCD_ENDPOINTS, value: "http://root:pa@ss-lastat-5150@etcd.dynamo:2379"},
            {name: NIXL_AUTH_HEADER, value: "Authorization: Basic dXNlcjpiYXNpYy02Ng=="},
            {name: NCCL_NET_PLUGIN_HEADER, value: "Authorization: Bearer tok-bearer-4242"},
            {name: NIXL_WORKER_ARGS, value: "--password pw-flag-7788 --token tok-flag-8899 password=pw-pair-9900"},
            {name: NIXL_TLS_CA, value: "-----BEGIN PRIVATE KEY-----\\nMIIpemBodySecret0001\\n-----END PRIVATE KEY-----\\n"},
            {name: NIXL_ETCD_AUTH, value: auth-suffix-1111},
            {name: UCX_PROXY_PASS, value: pass-suffix-2222},
            {name: NCCL_SMB_PASSWD, value: passwd-suffix-3333},
            {name: NIXL_CLOUD_CREDENTIALS, value: cred-suffix-4444}],
      resources: {limits: {nvidia.com/gpu: "8", rdma/ib: "8"}},
      securityContext: {capabilities: {add: [IPC_LOCK]}}}]}}
  - name: decode
    type: decode
    replicas: 1
    podTemplate: {spec: {containers: [{name: main,
      env: [{name: UCX_TLS, value: "rc,cuda_copy"}],
      resources: {limits: {nvidia.com/gpu: "8", rdma/ib: "8"}},
      securityContext: {capabilities: {add: [IPC_LOCK]}}}]}}
"""
SECRETS = ["ss-lastat-5150", "dXNlcjpiYXNpYy02Ng", "tok-bearer-4242", "pw-flag-7788", "tok-flag-8899",
           "pw-pair-9900", "MIIpemBodySecret0001", "auth-suffix-1111", "pass-suffix-2222",
           "passwd-suffix-3333", "cred-suffix-4444"]


class SecretShapes(unittest.TestCase):
    def test_no_secret_shape_in_any_format(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "deploy.yaml"), "w") as f:
                f.write(SECRET_SHAPES)
            for fmt in ("table", "wide", "json", "yaml"):
                with self.subTest(output=fmt):
                    rc, out, err = run("env", d, "-o", fmt)
                    self.assertEqual(rc, 0, out + err)
                    self.assertIn("NIXL_WORKER_ARGS", out)  # the values were shown, masked
                    for secret in SECRETS:
                        self.assertNotIn(secret, out + err)
            rc, out, err = run("env", d, "-o", "json")
        checks = {c["name"]: c["detail"] for c in json.loads(out)["targets"][0]["checks"]}
        self.assertEqual(checks["prefill NIXL_ETCD_ENDPOINTS"], "http://***@etcd.dynamo:2379")
        self.assertEqual(checks["prefill NIXL_AUTH_HEADER"], "Authorization: Basic ***")
        self.assertEqual(checks["prefill NIXL_WORKER_ARGS"], "--password *** --token *** password=***")
        self.assertEqual(checks["prefill NIXL_TLS_CA"],
                         "-----BEGIN PRIVATE KEY-----***-----END PRIVATE KEY-----\n")
        for name in ("NIXL_ETCD_AUTH", "UCX_PROXY_PASS", "NCCL_SMB_PASSWD", "NIXL_CLOUD_CREDENTIALS"):
            self.assertEqual(checks["prefill " + name], "***")


FIXTURE_RECIPES = os.path.join(TESTS, "fixtures", "recipe")


class UnknownVocabulary(unittest.TestCase):
    def test_component_type_main_reads_the_role_flags_and_is_never_surface_ok(self):
        rc, out, err = run("env", os.path.join(FIXTURE_RECIPES, "sglang-disagg-componenttype-main.yaml"),
                           "-o", "json")
        doc = json.loads(out)
        facts = doc["targets"][0]["facts"]
        self.assertTrue(facts["disagg"])
        self.assertEqual({s["name"]: s["role"] for s in facts["services"]},
                         {"Frontend": "frontend", "SglangWorkerA": "decode", "SglangWorkerB": "prefill"})
        self.assertEqual(facts["services"][1]["notUnderstood"], "component type 'main'")
        self.assertEqual(doc["verdict"]["status"], "unconfirmed")
        self.assertEqual(rc, 1, err)

    def test_unknown_worker_roles_are_not_aggregated_ok(self):
        rc, out, err = run("env", os.path.join(FIXTURE_RECIPES, "sglang-componenttype-main-no-role.yaml"))
        self.assertEqual(rc, 1, out + err)
        self.assertIn("worker roles unknown: SglangWorkerA (component type 'main')", out)
        self.assertNotIn("surface-ok", out)
        self.assertNotIn("aggregated deployment, the KV transport is not exercised", out)


class BadInput(unittest.TestCase):
    def expect_3(self, path, fragment):
        rc, out, err = run("env", path)
        self.assertEqual(rc, 3, out + err)
        self.assertEqual(out, "")
        self.assertIn(fragment, err)
        self.assertNotIn("terminate called", err)

    def test_missing_path(self):
        self.expect_3("/nonexistent/recipe", "/nonexistent/recipe")

    def test_transport_from_the_environment_is_checked_the_flag_wins(self):
        rc, out, err = run("node", "--local", env={"DYNAMO_ICHECK_TRANSPORT": "spdy"})
        self.assertEqual((rc, out), (3, ""), err)
        self.assertIn("invalid DYNAMO_ICHECK_TRANSPORT: use proxy or kubectl", err)
        rc, out, err = run("node", "--local", "--transport", "kubectl", "-o", "json",
                           env={"DYNAMO_ICHECK_TRANSPORT": "spdy"})
        self.assertNotEqual(rc, 3, err)
        rc, out, err = run("node", "--local", "--transport", "spdy")
        self.assertEqual(rc, 3, err)

    def test_empty_folder(self):
        with tempfile.TemporaryDirectory() as d:
            self.expect_3(d, d)

    def test_not_yaml(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "deploy.yaml"), "wb") as f:
                f.write(b"\x00\x01\x02 not yaml \xff\xfe")
            self.expect_3(d, "deploy.yaml")

    def test_syntax_error_names_file_and_line(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "deploy.yaml"), "w") as f:
                f.write("apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nspec: [a, b\n")
            rc, out, err = run("env", d)
            self.assertEqual(rc, 3)
            self.assertRegex(err, r"deploy\.yaml:\d+")

    def test_no_dgd(self):
        self.expect_3(recipe("kimi-k2.5", "tokenspeed", "agg", "nvidia"), "no DynamoGraphDeployment")

    def test_one_bad_file_others_still_reported(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "deploy.yaml"), "w") as f:
                f.write(DISAGG_UCX_TCP_ONLY)
            with open(os.path.join(d, "deploy-broken.yaml"), "w") as f:
                f.write("kind: [\n")
            rc, out, err = run("env", d)
        self.assertEqual(rc, 2, out + err)
        self.assertIn("error    deploy-broken.yaml", out)

    def test_every_mistake_reads_like_kubectl(self):
        # A readable recipe, so that only the flag can be what fails: one "error: ..." line, then
        # the help of the command it concerns, exit 3, nothing on stdout.
        path = recipe("llama-3-70b", "vllm", "agg")
        for args, says, command in (
                (["env", path, "--bogus"], "unknown flag: --bogus", "env"),
                (["node", "--bogus"], "unknown flag: --bogus", "node"),
                (["node", "-x"], "unknown shorthand flag: 'x' in -x", "node"),
                (["-o", "json", "node"], "unknown shorthand flag: 'o' in -o", ""),
                (["env", path, "-o", "xml"], 'invalid argument "xml" for "-o, --output" flag: use one of table, wide, json, yaml', "env"),
                (["nixl", "--pairs", "some"], 'invalid argument "some" for "--pairs" flag: use one of cover, all', "nixl"),
                (["node", "--parallel", "0"], 'invalid argument "0" for "--parallel" flag: use a number from 1 to 1024', "node"),
                (["node", "--timeout", "soon"], 'invalid argument "soon" for "--timeout" flag', "node"),
                (["node", "--timeout", ".s"], 'invalid argument ".s" for "--timeout" flag', "node"),
                (["nixl", "--transfer-timeout", "500ms"], 'invalid argument "500ms" for "--transfer-timeout" flag', "nixl"),
                (["node", "--timeout"], "flag needs an argument: --timeout", "node"),
                (["node", "-o"], "flag needs an argument: 'o' in -o", "node"),
                (["env"], "env needs PATH: recipe folder or one manifest file", "env"),
                (["all"], "all needs RECIPE_DIR: recipe folder", "all"),
                (["env", path, path], 'unexpected argument "%s" for "kubectl dynamo-icheck env"' % path, "env"),
                (["node", "mypod"], 'unexpected argument "mypod" for "kubectl dynamo-icheck node": it takes no arguments', "node"),
                # Flags a command does not use are refused, not silently ignored.
                (["env", path, "--pod", "x"], "unknown flag: --pod", "env"),
                (["env", path, "--transfer"], "unknown flag: --transfer", "env"),
                (["node", "--transfer"], "unknown flag: --transfer", "node"),
                (["version", "--local"], "unknown flag: --local", "version"),
                (["version", "-o", "json"], "unknown shorthand flag: 'o' in -o", "version")):
            with self.subTest(args=args):
                rc, out, err = run(*args)
                self.assertEqual((rc, out), (3, ""))
                see = "kubectl dynamo-icheck %s--help" % (command + " " if command else "")
                lines = err.splitlines()
                self.assertEqual(len(lines), 2, err)
                self.assertTrue(lines[0].startswith("error: " + says), err)
                self.assertEqual(lines[1], "See '%s' for usage." % see)
                for cli11 in ("The following argument", "is required", "A subcommand", "Run with --help"):
                    self.assertNotIn(cli11, err)

    def test_no_subcommand_prints_help_to_stdout(self):
        # As kubectl: the bare command is a request for help, not a mistake.
        for args in ([], ["-n", "dynamo"]):
            with self.subTest(args=args):
                rc, out, err = run(*args)
                self.assertEqual((rc, err), (0, ""))
                self.assertIn("Usage:\n  kubectl dynamo-icheck [command] [options]", out)
                for sub in ("env", "node", "nixl", "all", "logs", "version", "options"):
                    self.assertIn("\n  " + sub + " ", out)

    def test_unknown_command_suggests(self):
        for args, word, guess in ((["nod"], "nod", "node"), (["--context", "x", "nixel"], "nixel", "nixl"),
                                  (["-n", "dynamo", "evn"], "evn", "env"), (["nod", "--bogus"], "nod", "node")):
            with self.subTest(args=args):
                rc, out, err = run(*args)
                self.assertEqual((rc, out), (3, ""))
                self.assertEqual(err, 'error: unknown command "%s" for "kubectl dynamo-icheck"\n\n'
                                 "Did you mean this?\n\t%s\nSee 'kubectl dynamo-icheck --help' for usage.\n"
                                 % (word, guess))
        rc, _, err = run("frobnicate")
        self.assertNotIn("Did you mean", err)
        # A word carrying terminal escapes (OSC 0 window title, BEL) is quoted with them escaped.
        rc, _, err = run("no\x1b]0;pwned\x07d")
        self.assertEqual(rc, 3)
        self.assertNotIn("\x1b", err)
        self.assertNotIn("\x07", err)
        self.assertIn("unknown command \"no", err)


class Cli(unittest.TestCase):
    def test_subcommand_help_lists_its_own_flags_with_defaults(self):
        for sub, own, example in (("node", "--deployment=''", "kubectl dynamo-icheck node --deployment llama-70b-disagg"),
                                  ("nixl", "--transfer=false", "kubectl dynamo-icheck nixl --deployment llama-70b-disagg --transfer"),
                                  ("env", "--live=false", "kubectl dynamo-icheck env recipes/llama-3-70b/vllm/disagg-multi-node")):
            with self.subTest(sub=sub):
                rc, out, _ = run(sub, "--help")
                self.assertEqual(rc, 0)
                self.assertIn("\nExamples:\n", out)
                self.assertIn("\n  " + example + "\n", out)
                self.assertIn("\n    " + own + ":\n", out)
                for flag in ("-o, --output=table", "--timeout=30s", "--parallel=16", "-c, --container=main"):
                    self.assertIn("\n    " + flag + ":\n", out)
                self.assertIn("\nExit codes:\n  0 ", out)
                # The Kubernetes flags are listed once, under `options`, and pointed to.
                self.assertNotIn("--kubeconfig", out)
                self.assertIn('Use "kubectl dynamo-icheck options" for a list of global', out)

    def test_env_on_many_files_ends_with_a_file_grid(self):
        rc, out, _ = run("env", recipe("llama-3-70b"), "--recursive")
        tables, _, verdict = out.rpartition("\nVERDICT")
        summary = tables.split(" files, the worst required status of each:\n")[1].strip().splitlines()
        self.assertEqual(summary[0].split(), ["FILE", "STATUS", "OK", "WARN", "FAIL", "SKIPPED"])
        doc = json.loads(run("env", recipe("llama-3-70b"), "--recursive", "-o", "json")[1])
        self.assertEqual([r.split()[:2] for r in summary[1:]],
                         [[t["name"], t["status"]] for t in doc["targets"]])
        one = run("env", recipe("llama-3-70b", "vllm", "agg"))[1]
        self.assertNotIn("files, the worst", one)

    def test_env_yaml_paths_start_at_the_service(self):
        # A path to paste into the recipe names its service: services.<X>... or components[<X>].
        doc = json.loads(run("env", RECIPES, "--recursive", "-o", "json")[1])
        paths = [ch["next"] for t in doc["targets"] for ch in t["checks"]
                 if any(k in ch.get("next", "") for k in ("securityContext", "resources.limits", "extraPodSpec"))]
        self.assertTrue(paths)
        for p in paths:
            self.assertRegex(p, r"^(services\.[\w-]+\.|components\[[\w-]+\] )", p)

    def test_version_subcommand_and_flag(self):
        rc, out, _ = run("version")
        self.assertEqual(rc, 0)
        self.assertRegex(out, r"^dynamo-icheck v\d+\.\d+\.\d+ \(commit ([0-9a-f]+|unknown), linux/\w+\)\n")
        self.assertRegex(out, r"libraries: Boost \d+\.\d+\.\d+, yaml-cpp \d+\.\d+\.\d+, CLI11 ")
        self.assertEqual(run("--version")[1], out)

    def test_completion_of_words(self):
        no_cluster = {"KUBECONFIG": "/nonexistent"}
        cases = (([""], ["env", "node", "nixl", "all", "logs", "version", "options"], 4),
                 (["logs", ""], [], 0),            # a saved log or folder: the shell completes files
                 (["n"], ["node", "nixl"], 4),
                 (["node", "-o", ""], ["table", "wide", "json", "yaml"], 4),
                 (["node", "--output=j"], ["--output=json"], 4),
                 (["node", "--color", "a"], ["auto", "always"], 4),
                 (["nixl", "--tra"], ["--transport", "--transfer", "--transfer-timeout"], 4),
                 (["env", ""], [], 0),             # the recipe folder: the shell completes files
                 (["env", "recipes/x", ""], [], 4),
                 (["node", "--recipe", ""], [], 0),
                 (["node", "-n", ""], [], 4),      # no cluster: no names, and no error text
                 (["nixl", "--pairs", ""], ["cover", "all"], 4),
                 (["all", "r", "--pairs=a"], ["--pairs=all"], 4),
                 (["node", "-A", "-o", "w"], ["wide"], 4),   # -A is a flag: "-o" takes the value
                 (["env", "--p"], ["--parallel"], 4))        # no --pod: env does not use it
        for words, want, directive in cases:
            with self.subTest(words=words):
                rc, out, err = run("__complete", *words, env=no_cluster)
                self.assertEqual((rc, err), (0, ""))
                self.assertEqual(out.splitlines(), want + [":%d" % directive])
        rc, out, _ = run("__complete", "node", "--", env=no_cluster)
        for flag in ("--deployment", "--pod", "--kubeconfig", "--parallel"):
            self.assertIn(flag, out.splitlines())

    def test_help_shows_kubectl_prefix(self):
        rc, out, _ = run("-h")
        self.assertEqual(rc, 0)
        self.assertIn("Usage:\n  kubectl dynamo-icheck [command]", out)

    def test_namespace_spellings_like_kubectl(self):
        # Each spelling must carry the value: kubectl's namespace check rejects it by name.
        for flags in (["-n", "ns/x"], ["-nns/x"], ["-n=ns/x"], ["--namespace=ns/x"]):
            with self.subTest(flags=flags):
                rc, _, err = run("node", *flags, env={"KUBECONFIG": "/nonexistent"})
                self.assertEqual(rc, 3, err)
                self.assertIn('invalid namespace "ns/x"', err)

    def test_invalid_namespace_is_kubectls_error(self):
        rc, _, err = run("node", "-n", "ns/x", env={"KUBECONFIG": "/nonexistent"})
        self.assertEqual(rc, 3)
        self.assertIn('invalid namespace "ns/x"', err)

    def test_color_only_when_asked_or_terminal(self):
        path = recipe("llama-3-70b", "vllm", "disagg-multi-node")
        self.assertNotIn("\x1b[", run("env", path)[1])  # stdout is a pipe
        self.assertIn("\x1b[", run("env", path, "--color", "always")[1])
        self.assertNotIn("\x1b[", run("env", path, "--color", "never")[1])

    def test_yaml_and_json_carry_the_same_document(self):
        path = recipe("qwen3-32b", "vllm", "cloud-providers")
        rc_j, out_j, _ = run("env", path, "-o", "json")
        rc_y, out_y, _ = run("env", path, "-o", "yaml")
        doc = json.loads(out_j)
        self.assertEqual(rc_j, rc_y)
        self.assertEqual(doc["apiVersion"], "dynamo-icheck/v1")
        self.assertEqual(doc["kind"], "Report")
        self.assertEqual(doc["mode"], "env")
        self.assertEqual(len(doc["targets"]), 5)  # one per alternative manifest, never mixed
        self.assertIn("apiVersion: dynamo-icheck/v1\n", out_y)
        for t in doc["targets"]:
            self.assertEqual(t["kind"], "manifest")
            self.assertIn("name: " + t["name"], out_y)

    def test_local_machine_has_no_dynamo_role(self):
        # node --local probes this machine: its kind is local, its role unknown (not "local").
        rc, out, _ = run("node", "--local", "-o", "json")
        doc = json.loads(out)
        self.assertEqual([(t["kind"], t["role"]) for t in doc["targets"]], [("local", "")], out)
        rc, out, _ = run("node", "--local")
        name = doc["targets"][0]["name"]
        self.assertIn("\n" + name + "  -  ", out)

    def test_all_refuses_a_deployment_its_recipe_does_not_define(self):
        # It would select no pod; said before any cluster is asked, naming what the recipe defines.
        r = recipe("qwen3-32b-fp8", "vllm", "disagg")
        rc, out, err = run("all", r, "--deployment", "llama-other")
        self.assertEqual(rc, 3)
        self.assertIn("--deployment llama-other is not a deployment the recipe defines "
                      "(qwen3-32b-fp8-vllm-disagg)", err)
        rc, out, err = run("all", r, "--local", "-o", "json")
        self.assertEqual(json.loads(out)["verdict"]["status"], "error")
        self.assertIn("--local is for node and nixl", err)
        self.assertEqual(rc, 3)

    def test_local_machine_is_judged_by_the_known_trouble_rows(self):
        # Run inside a worker's container, --local reads that container's environment: a
        # side-channel host that names the pod itself is the row's fail (volcano-sh/kthena #1781).
        rc, out, _ = run("node", "--local", "-o", "json", env={"VLLM_NIXL_SIDE_CHANNEL_HOST": "0.0.0.0"})
        doc = json.loads(out)
        side = [c for c in doc["targets"][0]["checks"] if c["name"] == "side-channel-host"]
        self.assertEqual([(c["status"], c["layer"]) for c in side], [("fail", "nixl")], out)
        self.assertTrue(side[0]["detail"].endswith("(volcano-sh/kthena #1781)"))
        self.assertEqual((doc["verdict"]["status"], rc), ("blocked", 2))
        rc, out, _ = run("node", "--local", "-o", "json")
        names = [c["name"] for c in json.loads(out)["targets"][0]["checks"]]
        if "VLLM_NIXL_SIDE_CHANNEL_HOST" not in os.environ:
            self.assertNotIn("side-channel-host", names)


if __name__ == "__main__":
    unittest.main()
