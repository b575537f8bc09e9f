"""python3 run.py MODULE [--transport proxy|kubectl]: one e2e test module, or a skip with its reason.

--transport runs every plugin of the module with that exec transport (DYNAMO_ICHECK_TRANSPORT);
without it the plugin's default (proxy) is used.

Exits 77 (CTest's SKIP_RETURN_CODE) printing `skipped: <reason>` when this machine cannot run the
e2e bed (no kubectl, no root, no mount namespaces); otherwise runs MODULE's tests on the kubectl
found (kubectl_finder), saying which.
"""
import os
import sys
import unittest

import harness
import kubectl_finder

SKIP = 77


def main(module):
    reason = harness.skip_reason()
    if reason:
        print("skipped: %s" % reason)
        return SKIP
    print("kubectl: %s; transport: %s" % (kubectl_finder.describe(),
                                          harness.transport() or "default"), flush=True)
    result = unittest.main(module=module, argv=[sys.argv[0], "-v"], exit=False).result
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[2] == "--transport" and sys.argv[3] in ("proxy", "kubectl"):
        os.environ["ICHECK_E2E_TRANSPORT"] = sys.argv[3]
    elif len(sys.argv) != 2:
        sys.exit("usage: run.py MODULE [--transport proxy|kubectl]")
    sys.exit(main(sys.argv[1]))
