"""Loopback fake Kubernetes API server for the kubectl-dynamo_icheck end-to-end tests.

Modules:
  scenario  -- load a scenario folder into pod objects; label selectors.
  sandbox   -- build each fake pod's root filesystem and run exec commands in it.
  websocket -- the few RFC 6455 pieces the v5.channel.k8s.io exec stream needs.
  server    -- the HTTP server (discovery, pods, exec), with a request log.
Run: python3 -m fakeapi --scenario DIR --port-file FILE --request-log FILE
"""
