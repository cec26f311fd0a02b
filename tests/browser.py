"""Headless Chromium for the browser tests: a minimal DevTools Protocol client and the `chromium`
fixture (skips, saying why, where Chromium is not installed; CI installs it: see .ci/run)."""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"), "/usr/bin/chromium")
                 if p and os.access(p, os.X_OK)), None)


class DevTools:
    """A minimal Chrome DevTools Protocol client over a stdlib WebSocket (RFC 6455, client side)."""

    def __init__(self, url: str, timeout: float = 60.0) -> None:
        u = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((u.hostname, u.port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {u.path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("DevTools closed the connection during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(f"DevTools refused the WebSocket: {head[:200]!r}")
        self.events: list[dict[str, Any]] = []
        self.next_id = 0

    def _recv_exactly(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("DevTools closed the connection")
            data += chunk
        return data

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        n = len(payload)
        header = bytes([0x80 | opcode])
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _message(self) -> dict[str, Any]:
        parts = []
        while True:
            b0, b1 = self._recv_exactly(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._recv_exactly(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._recv_exactly(8))[0]
            payload = self._recv_exactly(n)  # the server never masks
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0x8:
                raise ConnectionError("DevTools closed the WebSocket")
            parts.append(payload)
            if b0 & 0x80:
                return json.loads(b"".join(parts))

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        self._send_frame(0x1, json.dumps({"id": self.next_id, "method": method, "params": params}).encode())
        while True:
            msg = self._message()
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self.events.append(msg)

    def wait_for(self, method: str, timeout: float = 60.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for e in self.events:
                if e.get("method") == method:
                    return e
            self.events.append(self._message())
        raise TimeoutError(f"no {method} within {timeout} s")

    def evaluate(self, expression: str) -> Any:
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"evaluating failed: {r['exceptionDetails']}")
        return r["result"]["value"]


@pytest.fixture
def chromium(tmp_path):
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    profile = tempfile.mkdtemp(prefix="levelbench-chromium-")
    proc = subprocess.Popen(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        port_file = Path(profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().count("\n") >= 1) and time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"chromium exited with code {proc.returncode} before opening DevTools")
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        no_proxy = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        targets = json.loads(no_proxy.open(f"http://127.0.0.1:{port}/json/list", timeout=30).read())
        page = next(t for t in targets if t["type"] == "page")
        client = DevTools(page["webSocketDebuggerUrl"])
        yield client
        client.sock.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(profile, ignore_errors=True)
