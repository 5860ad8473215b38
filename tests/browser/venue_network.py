"""The venue's Wi-Fi between the browser and the live server, which a test can cut.

Chromium's offline emulation (Playwright's `set_offline`) does not reliably reach a page's
requests that pass through its service worker (microsoft/playwright#2311), so a test that
cuts only the emulation may still see a request arrive. A cut here is the network itself:
every open connection is closed and a new one is closed as soon as it is accepted, so a
request fails as it does when a church hall's router goes down."""

from __future__ import annotations

import contextlib
import socket
import threading
from urllib.parse import urlsplit


class VenueNetwork:
    def __init__(self, server_url: str) -> None:
        target = urlsplit(server_url)
        self.target = (target.hostname or "localhost", target.port or 80)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://localhost:{self.listener.getsockname()[1]}"
        self._cut = False
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            for sock in self._open:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self._open.clear()

    def restore(self) -> None:
        with self._lock:
            self._cut = False

    def close(self) -> None:
        self.cut()
        with contextlib.suppress(OSError):
            self.listener.close()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                client, _ = self.listener.accept()
                with self._lock:
                    if self._cut:
                        client.close()
                        continue
                    upstream = socket.create_connection(self.target)
                    self._open.update((client, upstream))
                for source, sink in ((client, upstream), (upstream, client)):
                    threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)
