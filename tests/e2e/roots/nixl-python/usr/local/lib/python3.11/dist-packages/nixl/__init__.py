# synthetic: a stand-in for NIXL's Python package (ai-dynamo/nixl src/api/python/__init__.py
# exports these names) for the e2e test bed, where no real NIXL, UCX or GPU exists. See _bindings.py.
from ._api import (
    DEFAULT_COMM_PORT,
    nixl_agent,
    nixl_agent_config,
    nixl_xfer_handle,
)

__all__ = ["DEFAULT_COMM_PORT", "nixl_agent", "nixl_agent_config", "nixl_xfer_handle"]
