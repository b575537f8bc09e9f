"""RBAC as the apiserver (before 1.35) applies it, for a fake server started with --rbac FILE.

FILE holds Role/ClusterRole documents (e.g. deploy/rbac.yaml); their rules are all the user may
do. A Role grants in its own namespace only; a ClusterRole everywhere. Requests map to
(verb, apiGroup, resource, namespace, name) the way the apiserver's RequestInfo does: GET on a
collection is list, on an object get; a WebSocket exec is GET (verb get on pods/exec), the SPDY
exec POST (verb create). Discovery is always allowed (system:discovery). A denied request gets
the real 403 Status body.
"""
import yaml

USER = "system:serviceaccount:dynamo:icheck-runner"


class Rules:
    def __init__(self, path):
        self.grants = []  # (namespace or None for cluster-wide, rule)
        with open(path) as f:
            for doc in yaml.safe_load_all(f):
                if doc and doc.get("kind") in ("Role", "ClusterRole"):
                    ns = doc["metadata"].get("namespace") if doc["kind"] == "Role" else None
                    self.grants += [(ns, r) for r in doc.get("rules", [])]

    def allows(self, verb, group, resource, namespace):
        for ns, rule in self.grants:
            if ns is not None and ns != namespace:
                continue
            if (_match(rule.get("verbs"), verb) and _match(rule.get("apiGroups"), group)
                    and _match(rule.get("resources"), resource)):
                return True
        return False


def _match(values, value):
    return bool(values) and ("*" in values or value in values)


def attributes(method, parts):
    """(verb, group, resource, namespace, name) of a request, or None for discovery."""
    if parts in (["version"], ["api"], ["apis"], ["api", "v1"]) or parts[:1] == ["openapi"]:
        return None
    if parts[:2] == ["api", "v1"]:
        rest, group = parts[2:], ""
    elif parts[:1] == ["apis"] and len(parts) >= 3:
        rest, group = parts[3:], parts[1]
    else:
        return None
    if not rest:  # /apis/GROUP/VERSION, a group version's resource list: discovery
        return None
    namespace = None
    if len(rest) >= 3 and rest[0] == "namespaces":
        namespace, rest = rest[1], rest[2:]
    elif rest[:1] == ["namespaces"] and len(rest) == 2:
        return ("get", group, "namespaces", None, rest[1])
    resource, name = rest[0], rest[1] if len(rest) > 1 else None
    if len(rest) > 2:
        resource += "/" + rest[2]
    if method == "POST":
        verb = "create"
    else:
        verb = "get" if name else "list"
    return (verb, group, resource, namespace, name)


def forbidden(verb, group, resource, namespace, name):
    """The apiserver's 403 Status for a denied request."""
    base, _, sub = resource.partition("/")
    what = '%s "%s"' % (base, name) if name else base
    where = 'in the namespace "%s"' % namespace if namespace else "at the cluster scope"
    message = '%s is forbidden: User "%s" cannot %s resource "%s" in API group "%s" %s' % (
        what, USER, verb, resource, group, where)
    details = {"kind": base}
    if name:
        details["name"] = name
    if group:
        details["group"] = group
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": message, "reason": "Forbidden", "details": details, "code": 403}
