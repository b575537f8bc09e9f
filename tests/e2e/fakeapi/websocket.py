"""The parts of RFC 6455 a server needs for the v5.channel.k8s.io exec stream."""
import base64
import hashlib
import struct

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


def accept_key(key):
    return base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()


def encode(opcode, payload):
    """One final, unmasked server frame."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 127, n)
    return head + payload


def close_payload(code, reason=b""):
    return struct.pack("!H", code) + reason


def read_frame(rfile):
    """Read one frame -> (fin, opcode, payload); None on EOF. Unmasks client frames."""
    head = rfile.read(2)
    if len(head) < 2:
        return None
    b0, b1 = head
    n = b1 & 0x7F
    if n == 126:
        ext = rfile.read(2)
        if len(ext) < 2:
            return None
        n = struct.unpack("!H", ext)[0]
    elif n == 127:
        ext = rfile.read(8)
        if len(ext) < 8:
            return None
        n = struct.unpack("!Q", ext)[0]
    mask = rfile.read(4) if b1 & 0x80 else None
    if mask is not None and len(mask) < 4:
        return None
    payload = rfile.read(n) if n else b""
    if len(payload) < n:
        return None
    if mask:
        payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bool(b0 & 0x80), b0 & 0x0F, payload
