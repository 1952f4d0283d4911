"""Whether ``make serve`` can listen where it is told, checked before the set-up and the build (standard library only).

``python3 scripts/serve_port.py 127.0.0.1:8000`` prints nothing when the address is free, and one line saying
what to do when it is taken (the Makefile stops with that line through ``$(error)``, exit status 2). MkDocs
itself binds its port only after the whole first build, and then stops with a 30-line ``OSError`` traceback.

The check binds the address as MkDocs' live-reload server does (``SO_REUSEADDR``, as ``http.server`` sets it:
a port left in TIME_WAIT by the last server counts as free, since MkDocs could take it) and lets it go at once.
Exit status 0 either way: the Makefile reads the output.
"""

from __future__ import annotations

import errno
import socket
import sys


def taken(host: str, port: int) -> str:
    """"" when ``host:port`` can be bound now, else the one line that says so and what to do."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (f"{host}:{port} is taken (another make serve?); "
                        f"stop it or choose a free port: make serve PORT={port + 1}")
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return ""


def main(argv: list[str]) -> int:
    if len(argv) != 1 or ":" not in argv[0]:
        print("usage: python3 scripts/serve_port.py HOST:PORT", file=sys.stderr)
        return 2
    host, _, port = argv[0].rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        print(f"PORT must be a number from 1 to 65535, not {port!r}")
        return 0
    print(taken(host.strip("[]"), int(port)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
