// The readers' flattening into fact names, and the rule that every fact a row names is one a
// reader provides.
#include "knowledge/evaluate.hpp"
#include "knowledge/load.hpp"
#include "probe/stack/stack_versions.hpp"
#include "rules/known/stack_facts.hpp"
#include "rules/known/stack_versions_rule.hpp"

#include <doctest/doctest.h>

using namespace icheck;
using knowledge::FactMap;

TEST_CASE("known: every fact a row names is one a reader provides") {
  for (const auto& row : knowledge::rows())
    for (const auto& c : row.when) {
      CAPTURE(row.id);
      CAPTURE(c.fact);
      CHECK(rules::known::provided_fact(c.fact));
    }
  CHECK_FALSE(rules::known::provided_fact("version.nixl_cu12"));  // the wheel is spelled nixl-cu12
  CHECK_FALSE(rules::known::provided_fact("gpu.name"));
  CHECK_FALSE(rules::known::provided_fact("env."));
}

TEST_CASE("known: the engine's command line, kv-transfer-config and backends into facts") {
  FactMap facts;
  rules::KvBackends b;
  b.framework = dynamo::Framework::vllm;
  b.names = {"UCX", "LIBFABRIC"};
  rules::known::add_engine(
      facts,
      {"python3", "-m", "dynamo.vllm", "--model", "m", "--enforce-eager", "--kv-transfer-config",
       R"({"kv_connector":"NixlConnector","kv_role":"kv_both","kv_connector_extra_config":{"backends":["UCX","LIBFABRIC"]}})",
       "--block-size=64"},
      b, std::nullopt);
  CHECK(facts.get("engine.framework") == "vllm");
  CHECK(facts.get("engine.kv_backend") == "nixl");
  CHECK(facts.get("engine.nixl_backends") == "UCX,LIBFABRIC");
  CHECK(facts.get("engine.kv_connector") == "NixlConnector");
  CHECK(facts.get("engine.kv_transfer.kv_role") == "kv_both");
  CHECK(facts.get("engine.kv_transfer.kv_connector_extra_config.backends") ==
        R"(["UCX","LIBFABRIC"])");
  CHECK(facts.get("engine.flag.--model") == "m");
  CHECK(facts.get("engine.flag.--enforce-eager") == "true");
  CHECK(facts.get("engine.flag.--block-size") == "64");
  CHECK(facts.known_absent("engine.flag.--enable-sleep-mode"));
  // A multinode worker pod whose leader was not probed: the backend is unknown, not the default.
  FactMap worker;
  b.unknown = "the leader was not probed";
  rules::known::add_engine(worker, {}, b, std::nullopt);
  CHECK_FALSE(worker.get("engine.kv_backend"));
  CHECK_FALSE(worker.known_absent("engine.flag.--x"));
}

TEST_CASE("known: TRT-LLM's cache_transceiver_config fields") {
  FactMap facts;
  rules::known::add_engine(
      facts, {}, rules::KvBackends{},
      std::string("cache_transceiver_config:\n  backend: UCX\n  max_tokens_in_buffer: 8192\n"));
  CHECK(facts.get("engine.cache_transceiver.backend") == "UCX");
  CHECK(facts.get("engine.cache_transceiver.max_tokens_in_buffer") == "8192");
  CHECK(facts.known_absent("engine.cache_transceiver.other"));
}

TEST_CASE("known: stack versions into facts, nixl wheels that disagree warn, never ok") {
  probe::StackVersions stack;
  stack.read = true;
  stack.add("nixl", "1.3.1", "/a/nixl-1.3.1.dist-info");
  stack.add("nixl-cu12", "1.3.0", "/a/nixl_cu12-1.3.0.dist-info");
  stack.add("nccl.wheel", "2.21.5", "/a/nvidia_nccl_cu12-2.21.5.dist-info");
  FactMap facts;
  rules::known::add_stack(facts, stack);
  CHECK(facts.get("version.nixl") == "1.3.1");
  CHECK(facts.get("version.nixl-cu12") == "1.3.0");
  CHECK(facts.get("version.nccl") == "2.21.5");
  rules::KvBackends b;  // NIXL with UCX, the default
  auto f = rules::known::stack_versions_finding(stack, facts, b);
  REQUIRE(f);
  CHECK(f->status == report::Status::warn);
  CHECK(f->required);
  CHECK(f->detail == "copies disagree: nixl 1.3.1 beside nixl-cu12 1.3.0; version unknown: ucx (no "
                     "known-trouble row can place it)");
  // Agreeing wheels and a known UCX: nothing to say.
  probe::StackVersions agree;
  agree.read = true;
  agree.add("nixl", "1.3.2", "a");
  agree.add("nixl-cu12", "1.3.2", "b");
  FactMap known;
  rules::known::add_stack(known, agree);
  known.set("version.ucx", "1.21.0");
  CHECK_FALSE(rules::known::stack_versions_finding(agree, known, b));
  known = FactMap{};
  rules::known::add_stack(known, agree);
  auto unknown = rules::known::stack_versions_finding(agree, known, b);
  REQUIRE(unknown);
  CHECK_FALSE(unknown->required);
  CHECK(unknown->detail == "version unknown: ucx (no known-trouble row can place it)");
  // An image where the probe named no KV library at all: nothing said here.
  probe::StackVersions bare;
  bare.read = true;
  bare.add("kernel", "6.8.0", "/proc/sys/kernel/osrelease");
  CHECK_FALSE(rules::known::stack_versions_finding(bare, FactMap{}, b));
}

TEST_CASE("known: pair facts carry both pods' facts under their role") {
  FactMap p, d;
  p.set("env.UCX_TLS", "rc");
  p.complete("env.");
  d.set("version.ucx", "1.19.0");
  auto pair = rules::known::pair_facts(p, d, true, false);
  CHECK(pair.get("prefill.env.UCX_TLS") == "rc");
  CHECK(pair.get("decode.version.ucx") == "1.19.0");
  CHECK(pair.known_absent("prefill.env.X"));
  CHECK_FALSE(pair.known_absent("decode.env.X"));
  CHECK(pair.get("pair.same_node") == "true");
  CHECK(pair.get("pair.roce_v2_gid_index_differs") == "false");
}
