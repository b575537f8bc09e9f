"""python3 run.py MODULE: one e2e test module, or a skip with its reason.

Exits 77 (CTest's SKIP_RETURN_CODE) printing `skipped: <reason>` when this machine cannot run the
e2e bed (no kubectl, no root, no mount namespaces); otherwise runs MODULE's tests on the kubectl
found (kubectl_finder), saying which.
"""
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
    print("kubectl: %s" % kubectl_finder.describe(), flush=True)
    result = unittest.main(module=module, argv=[sys.argv[0], "-v"], exit=False).result
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
