"""Every knowledge row proven on pods (issue 37): each row's `failing` and `healthy` examples
are written by the fact writers (fact_writers.py) into pods as a real worker holds them (its
environment, command line, wheels, tools' outputs, pod object, logs and events), the plugin runs
`nixl` once over all of them through the real kubectl, and the row must fire on its failing
pod(s), in its layer with its status, and not on its healthy twin. A row whose facts no reader
fills from a real layout fails here, as does a row whose fact has no writer unless it is in
UNWRITABLE with the reason.

Trouble rows get a pod each (a prefill and a decode pod of their own DGD for rows over a pair);
signature rows are batched: one pod holds every failing line (current or previous container),
one every healthy line, and the same for events."""
import glob
import json
import os
import re
import sys
import tempfile
import unittest

import yaml

import fact_writers
import harness

VERSION = "1.32"
DATA = os.path.join(os.path.dirname(os.path.dirname(harness.E2E_DIR)), "src", "knowledge", "data")

# Facts no writer can put into a pod of this bed yet, each with why. A row naming one is listed,
# not proven; anything else that raises Unwritable fails the test.
UNWRITABLE = {}


def load_rows():
    rows = []
    for path in sorted(glob.glob(os.path.join(DATA, "*.yaml"))):
        with open(path) as f:
            doc = yaml.safe_load(f)
        for r in doc.get("rows") or []:
            rows.append(dict(r, kind=doc["kind"], file=os.path.basename(path)))
    return rows


def is_pair(facts):
    return any(k.startswith(("prefill.", "decode.", "pair.")) for k in facts)


def strings(facts):
    return {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in (facts or {}).items()}


def text_patterns(row):
    """The row's patterns over log.line / event.message, as Python's re reads them (close enough
    to the plugin's engine to tell which healthy lines another row would take)."""
    out = []
    for c in row.get("when", []):
        if c["fact"] in ("log.line", "event.message"):
            for op, flags in (("matches", 0), ("imatches", re.I)):
                if op in c:
                    try:
                        out.append((c["fact"], re.compile(c[op], flags)))
                    except re.error:
                        out.append((c["fact"], None))
    return out


def unwritable_reason(message):
    for fact, why in UNWRITABLE.items():
        if message.startswith(fact):
            return why
    return None


class World:
    """The pods of every row, and which pods must (and must not) show which row."""

    def __init__(self, rows):
        self.pods = []
        self.expect = []  # (row, pod names, should fire)
        self.unwritten = []  # (row id, fact, reason or None)
        signature_pods = {}
        patterns = {r["id"]: text_patterns(r) for r in rows if r["kind"] == "signature"}

        def taken_by_another(row, facts):
            # A healthy line that is another row's failure (e.g. the ENOMEM twin of a "Bad
            # address" line) gets a pod of its own, so that row firing there says nothing.
            for other, pats in patterns.items():
                if other == row["id"] or not pats:
                    continue
                if all(p is not None and p.search(facts.get(f, "")) for f, p in pats):
                    return True
            return False

        for i, row in enumerate(rows):
            try:
                made = []
                for side in ("failing", "healthy"):
                    facts = strings(row.get(side))
                    tag = "r%d-%s" % (i, side[0])
                    if row["kind"] == "signature" and set(facts) <= {"log.line", "log.container", "event.reason",
                                                                      "event.message", "event.type"}:
                        key = (side, "event" if any(k.startswith("event.") for k in facts) else
                               facts.get("log.container", "current"))
                        if side == "healthy" and taken_by_another(row, facts):
                            key = (side, "%s-r%d" % (key[1], i))
                        pod = signature_pods.get(key)
                        if pod is None:
                            pod = fact_writers.new_pod("sig-%s-%s" % (side[0], key[1]), "sig-%s-%s" % (side[0], key[1]))
                            signature_pods[key] = pod
                        made.append((None, pod, facts, side))
                    elif is_pair(facts):
                        pods = fact_writers.render_pair(tag, tag, facts)
                        made.append((pods, None, None, side))
                    else:
                        pod = fact_writers.render(fact_writers.new_pod(tag, tag), facts)
                        made.append(([pod], None, None, side))
            except fact_writers.Unwritable as e:
                self.unwritten.append((row["id"], str(e), unwritable_reason(str(e))))
                continue
            for pods, shared, facts, side in made:
                if shared is not None:
                    fact_writers.render(shared, facts)
                    self.expect.append((row, [shared["name"]], side == "failing"))
                else:
                    self.pods += pods
                    self.expect.append((row, [p["name"] for p in pods], side == "failing"))
        self.pods += signature_pods.values()


class TestEveryRowOnPods(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rows = load_rows()
        cls.world = World(cls.rows)
        cls.tmp = tempfile.mkdtemp(prefix="icheck-rows-")
        folder = os.path.join(cls.tmp, "rows-on-pods")
        os.makedirs(folder)
        with open(os.path.join(folder, "scenario.json"), "w") as f:
            json.dump(fact_writers.scenario(cls.world.pods, "every knowledge row's examples, written "
                                            "into pods by tests/e2e/fact_writers.py"), f)
        # `node` shows the layers up to UCX, `nixl` NIXL's: together every layer a row may name.
        cls.fired, cls.err = {}, ""  # pod name -> {row id: check}
        c = harness.FakeCluster(folder)
        c.start(timeout=300)  # one root per distinct pod spec: a few hundred folders to build
        try:
            for mode in ("node", "nixl"):
                rc, out, err, _ = c.run_plugin(
                    VERSION, [mode, "-n", "dynamo", "--parallel", "32", "-o", "json"], timeout=900)
                cls.err += err
                doc = harness.json_doc(cls, rc, out, err)
                for t in doc["targets"]:
                    cls.fired.setdefault(t["name"], {}).update(
                        {c["row"]: c for c in t["checks"] if "row" in c})
        finally:
            c.__exit__(None, None, None)  # stops it; checks the run made only reads and exec

    def test_every_pod_was_judged(self):
        names = {p["name"] for p in self.world.pods}
        self.assertEqual(names - set(self.fired), set(), self.err[-2000:])

    def test_every_row_fires_on_its_failing_pods_and_not_on_its_healthy_twin(self):
        missed, false_alarms, wrong = [], [], []
        fired_rows = set()
        for row, pods, should in self.world.expect:
            for name in pods:
                check = self.fired.get(name, {}).get(row["id"])
                if should and check is None:
                    missed.append("%s (%s) on %s" % (row["id"], row["file"], name))
                elif should and (check["status"], check["layer"]) != (row["status"], row["layer"]):
                    wrong.append("%s on %s: %s/%s, row says %s/%s" % (row["id"], name, check["status"],
                                                                       check["layer"], row["status"], row["layer"]))
                elif not should and check is not None:
                    false_alarms.append("%s (%s) on its healthy twin %s" % (row["id"], row["file"], name))
                elif should:
                    fired_rows.add(row["id"])
        proven = {r["id"] for r, _, s in self.world.expect if s}
        sys.stderr.write("rows: %d, rendered: %d, fired end to end: %d, missed: %d, false alarms: %d, "
                         "not writable: %d\n" % (len(self.rows), len(proven), len(fired_rows - {
                             m.split(" ")[0] for m in missed}), len({m.split(" ")[0] for m in missed}),
                             len(false_alarms), len(self.world.unwritten)))
        for line in missed + wrong + false_alarms:
            sys.stderr.write("  " + line + "\n")
        self.assertEqual((missed, wrong, false_alarms), ([], [], []))

    def test_a_fact_without_a_writer_has_a_reason(self):
        for row_id, fact, why in self.world.unwritten:
            sys.stderr.write("not writable: %s: %s (%s)\n" % (row_id, fact, why))
        self.assertEqual([(r, f) for r, f, why in self.world.unwritten if why is None], [])


if __name__ == "__main__":
    unittest.main()
