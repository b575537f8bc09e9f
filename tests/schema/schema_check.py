"""A validator for the JSON Schema subset docs/report-v1.schema.json uses (stdlib only: there is
no jsonschema package here): type, const, enum, required, properties, additionalProperties
(false or a schema), items, minLength, minimum, pattern, and $ref to "#/$defs/NAME". A keyword
outside that subset is an error, so the schema cannot grow a rule this file silently ignores.

    errors(document, schema) -> ["targets[0].checks[2].id: 'kv transfer' does not match ..."]
    check_report(stdout_text, "json"|"yaml") raises AssertionError naming every violation.
"""
import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA_PATH = os.path.join(ROOT, "docs", "report-v1.schema.json")

KNOWN = {"$schema", "$id", "$defs", "title", "description", "type", "const", "enum", "required",
         "properties", "additionalProperties", "items", "minLength", "minimum", "pattern", "$ref"}

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def load_schema():
    with open(SCHEMA_PATH) as f:
        return json.load(f)


def _resolve(ref, root):
    if not ref.startswith("#/$defs/"):
        raise ValueError("unsupported $ref %r" % ref)
    return root["$defs"][ref[len("#/$defs/"):]]


def _object_errors(value, schema, root, path):
    out = []
    for key in schema.get("required", []):
        if key not in value:
            out.append("%s: missing required field %r" % (path or "(document)", key))
    props = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        where = "%s.%s" % (path, key) if path else key
        if key in props:
            out += _errors(item, props[key], root, where)
        elif extra is False:
            out.append("%s: field not in the schema (add it to docs/report-v1.schema.json)" % where)
        elif isinstance(extra, dict):
            out += _errors(item, extra, root, where)
    return out


def _scalar_errors(value, schema, path):
    out = []
    if "minLength" in schema and isinstance(value, str) and len(value) < schema["minLength"]:
        out.append("%s: shorter than %d" % (path, schema["minLength"]))
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        out.append("%s: %r does not match %s" % (path, value, schema["pattern"]))
    if "minimum" in schema and TYPES["number"](value) and value < schema["minimum"]:
        out.append("%s: %r is below %r" % (path, value, schema["minimum"]))
    return out


def _errors(value, schema, root, path):
    unknown = set(schema) - KNOWN
    if unknown:
        raise ValueError("%s: schema keywords this validator does not implement: %s"
                         % (path, sorted(unknown)))
    if "$ref" in schema:
        return _errors(value, _resolve(schema["$ref"], root), root, path)
    if "const" in schema and value != schema["const"]:
        return ["%s: %r is not %r" % (path, value, schema["const"])]
    if "enum" in schema and value not in schema["enum"]:
        return ["%s: %r is not one of %s" % (path, value, schema["enum"])]
    types = schema.get("type")
    if types is not None:
        types = [types] if isinstance(types, str) else types
        if not any(TYPES[t](value) for t in types):
            return ["%s: %s is not of type %s" % (path, type(value).__name__, "/".join(types))]
    out = _scalar_errors(value, schema, path)
    if isinstance(value, dict):
        out += _object_errors(value, schema, root, path)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            out += _errors(item, schema["items"], root, "%s[%d]" % (path, i))
    return out


def errors(document, schema=None):
    schema = schema if schema is not None else load_schema()
    return _errors(document, schema, schema, "")


def check_report(text, fmt="json"):
    """The document `-o json` / `-o yaml` printed, validated; returns it."""
    if fmt == "yaml":
        import yaml
        doc = yaml.safe_load(text)
    else:
        doc = json.loads(text)
    problems = errors(doc)
    if problems:
        raise AssertionError("the report does not follow docs/report-v1.schema.json:\n  "
                             + "\n  ".join(problems[:20]))
    return doc


def output_format(args):
    """"json", "yaml" or None: the -o an argv asks for (-o json, -ojson, -o=json, --output json,
    --output=json), the last one winning as in the parser."""
    fmt = None
    args = list(args)
    for i, a in enumerate(args):
        if a in ("-o", "--output") and i + 1 < len(args):
            fmt = args[i + 1]
        elif a.startswith("--output="):
            fmt = a[len("--output="):]
        elif a.startswith("-o") and len(a) > 2:
            fmt = a[2:].lstrip("=")
    return fmt if fmt in ("json", "yaml") else None
