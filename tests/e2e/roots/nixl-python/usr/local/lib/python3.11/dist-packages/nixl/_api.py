# synthetic: stands in for NIXL's `nixl._api` (ai-dynamo/nixl src/api/python/_api.py) in the e2e
# test bed: the public names, parameter names, defaults and return values ("DONE", "PROC",
# "ERR") of the calls a two-peer transfer makes, over the stand-in `_bindings`. A call the real
# API would reject is rejected here too (a wrong argument raises TypeError, an unknown operation
# KeyError, a NIXL failure the `_bindings` exception), so the plugin's script cannot drift from it.
from typing import Optional

from . import _bindings as nixlBind

DEFAULT_COMM_PORT = nixlBind.DEFAULT_COMM_PORT


class nixl_xfer_handle:
    def __init__(self, agent, value: int):
        self._agent = agent
        self._handle = value

    def release(self):
        if self._handle is not None:
            self._agent.releaseXferReq(self._handle)
            self._handle = None


class nixl_agent_config:
    def __init__(self, enable_prog_thread: bool = True, enable_listen_thread: bool = False,
                 listen_port: int = DEFAULT_COMM_PORT, capture_telemetry: bool = False,
                 num_threads: int = 0, backends: list = ["UCX"], sync_mode=None):
        self.backends = backends
        self.enable_pthread = enable_prog_thread
        self.enable_listen = enable_listen_thread
        self.port = listen_port
        self.capture_telemetry = capture_telemetry
        self.num_threads = num_threads
        self.sync_mode = sync_mode


class nixl_agent:
    def __init__(self, agent_name: str, nixl_conf: Optional[nixl_agent_config] = None,
                 instantiate_all: bool = False):
        conf = nixl_conf or nixl_agent_config()
        cfg = nixlBind.nixlAgentConfig()
        cfg.useProgThread = conf.enable_pthread
        cfg.useListenThread = conf.enable_listen
        cfg.listenPort = conf.port
        self.agent = nixlBind.nixlAgent(agent_name, cfg)
        self.name = agent_name
        self.backends = {}
        self.plugin_list = self.agent.getAvailPlugins()
        if not self.plugin_list:
            raise RuntimeError("No plugins available for NIXL, cannot start transfers!")
        for backend in (self.plugin_list if instantiate_all and not nixl_conf else conf.backends):
            if backend in self.plugin_list:  # a missing plugin is skipped with a warning
                self.create_backend(backend)
        self.nixl_mems = {"DRAM": nixlBind.DRAM_SEG, "VRAM": nixlBind.VRAM_SEG,
                          "FILE": nixlBind.FILE_SEG, "BLOCK": nixlBind.BLK_SEG,
                          "OBJ": nixlBind.OBJ_SEG, "cpu": nixlBind.DRAM_SEG, "cuda": nixlBind.VRAM_SEG}
        self.nixl_ops = {"WRITE": nixlBind.NIXL_WRITE, "READ": nixlBind.NIXL_READ}

    def get_plugin_list(self) -> list:
        return self.plugin_list

    def create_backend(self, backend: str, initParams: dict = {}):
        self.backends[backend] = self.agent.createBackend(backend, initParams)

    def _handles(self, backends):
        return [self.backends[b] for b in backends]

    def get_reg_descs(self, descs, mem_type: Optional[str] = None):
        if isinstance(descs, nixlBind.nixlRegDList):
            return descs
        if isinstance(descs, list) and descs and isinstance(descs[0], tuple) \
                and mem_type is not None and len(descs[0]) == 4:
            return nixlBind.nixlRegDList(self.nixl_mems[mem_type], descs)
        return None

    def get_xfer_descs(self, descs, mem_type: Optional[str] = None):
        if isinstance(descs, nixlBind.nixlXferDList) and not isinstance(descs, nixlBind.nixlRegDList):
            return descs
        if isinstance(descs, list) and descs and isinstance(descs[0], tuple) \
                and mem_type is not None and len(descs[0]) == 3:
            return nixlBind.nixlXferDList(self.nixl_mems[mem_type], descs)
        return None

    def register_memory(self, reg_list, mem_type: Optional[str] = None, backends: list = []):
        reg_descs = self.get_reg_descs(reg_list, mem_type)
        self.agent.registerMem(reg_descs, self._handles(backends))
        return reg_descs

    def deregister_memory(self, dereg_list, backends: list = []):
        self.agent.deregisterMem(dereg_list, self._handles(backends))

    def initialize_xfer(self, operation: str, local_descs, remote_descs, remote_agent: str,
                        notif_msg: bytes = b"", backends: list = []) -> nixl_xfer_handle:
        op = self.nixl_ops[operation]
        handle = self.agent.createXferReq(op, local_descs, remote_descs, remote_agent, notif_msg,
                                          self._handles(backends))
        return nixl_xfer_handle(self.agent, handle)

    def _state(self, status):
        if status == nixlBind.NIXL_SUCCESS:
            return "DONE"
        return "PROC" if status == nixlBind.NIXL_IN_PROG else "ERR"

    def transfer(self, handle: nixl_xfer_handle, notif_msg: bytes = b"") -> str:
        return self._state(self.agent.postXferReq(handle._handle, notif_msg))

    def check_xfer_state(self, handle: nixl_xfer_handle) -> str:
        return self._state(self.agent.getXferStatus(handle._handle))

    def release_xfer_handle(self, handle: nixl_xfer_handle):
        handle.release()

    def get_agent_metadata(self) -> bytes:
        return self.agent.getLocalMD()

    def add_remote_agent(self, metadata: bytes) -> str:
        return self.agent.loadRemoteMD(metadata)

    def remove_remote_agent(self, agent: str):
        self.agent.invalidateRemoteMD(agent)

    def get_new_notifs(self, backends: list = []) -> dict:
        return self.agent.getNotifs({}, self._handles(backends))

    def send_notif(self, remote_agent_name: str, notif_msg: bytes, backend: Optional[str] = None):
        self.agent.genNotif(remote_agent_name, notif_msg)
