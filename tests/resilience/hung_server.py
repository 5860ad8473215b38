"""A server that accepts connections and never answers: a hung Redis, as seen by a client."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator


class HungServer:
    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def connections(self) -> int:
        return len(self.accepted)

    def _accept(self) -> None:
        with contextlib.suppress(OSError):  # the listener closed
            while True:
                conn, _ = self.listener.accept()
                self.accepted.append(conn)  # held open, never read from or written to

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        self.listener.close()
        for conn in self.accepted:
            conn.close()


@contextlib.contextmanager
def hung_server() -> Iterator[HungServer]:
    server = HungServer()
    try:
        yield server
    finally:
        server.close()
