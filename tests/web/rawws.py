"""A bare WebSocket client on a plain socket, for pages that misbehave (e.g. never read).

Libraries read in the background; this one reads only when asked, with a
small receive buffer, so the server sees a reader that has stopped.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
from typing import Any


class RawWebSocket:
    def __init__(self, port: int, path: str, rcvbuf: int = 4096, timeout: float = 30.0, source: str | None = None) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        if source is not None:  # another loopback address (127.0.0.2, ...): another client to the server
            self.sock.bind((source, 0))
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()
        )
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(1024)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(head.decode(errors="replace"))

    def send_json(self, msg: Any) -> None:
        self.send_frame(0x1, json.dumps(msg).encode())

    def send_frame(self, opcode: int, data: bytes) -> None:
        """One masked, final frame: 0x1 text (``data`` need not be valid UTF-8), 0x2 binary."""
        mask = os.urandom(4)
        n = len(data)
        b0 = 0x80 | opcode
        if n < 126:
            head = struct.pack("!BB", b0, 0x80 | n)
        elif n < 1 << 16:
            head = struct.pack("!BBH", b0, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", b0, 0x80 | 127, n)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, n: int) -> bytes:
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read_frame(self) -> tuple[int, bytes]:
        """(opcode, payload) of the next frame (the server does not fragment)."""
        b0, b1 = self._read(2)
        n = b1 & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", self._read(2))
        elif n == 127:
            (n,) = struct.unpack("!Q", self._read(8))
        return b0 & 0x0F, self._read(n)

    def read_json(self) -> Any:
        """The next text frame, parsed (control frames are skipped; EOFError on a close frame)."""
        while True:
            op, payload = self.read_frame()
            if op == 1:
                return json.loads(payload)
            if op == 8:
                raise EOFError(f"closed: {payload!r}")

    def read_until_close(self, limit: int = 100_000) -> tuple[int | None, int]:
        """Read frames until the server's close frame: (close code or None on EOF, text frames read)."""
        texts = 0
        for _ in range(limit):
            try:
                op, payload = self.read_frame()
            except (EOFError, ConnectionError):
                return None, texts
            if op == 8:
                return (struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None), texts
            texts += op == 1
        raise AssertionError(f"no close frame in {limit} frames")

    def close(self) -> None:
        self.sock.close()
