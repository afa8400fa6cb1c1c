"""Serve a built site on localhost as a static host does: gzip for text, every 404 recorded.

Used by ``tools/site_audit.py`` (Lighthouse, ``make site-audit``) and by the
browser tests (``tests/book/test_site.py``), so that what they measure is what a
reader's browser receives from GitHub Pages or any static host: HTML, CSS,
JavaScript, JSON and SVG gzip-compressed (level 6, as nginx and GitHub
Pages do), images as they are.  Every request answered 404 is kept in
:attr:`SiteServer.missing`.

    python tools/serve_site.py _build/html 8000     # serve until Ctrl-C
"""
from __future__ import annotations

import functools
import gzip
import http.server
import io
import sys
import threading
from pathlib import Path

#: File types sent gzip-compressed when the browser accepts it.
COMPRESSED = {".html", ".css", ".js", ".json", ".svg", ".txt", ".xml", ".map", ".ico", ".mjs"}


class _Handler(http.server.SimpleHTTPRequestHandler):
    missing: list = []
    cache: dict = {}

    def log_message(self, *args):
        pass

    def send_error(self, code, message=None, explain=None):
        if code == 404:
            self.missing.append(self.path)
        super().send_error(code, message, explain)

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        gzip_ok = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (gzip_ok and path.suffix in COMPRESSED and path.is_file()):
            return super().send_head()
        key = (str(path), path.stat().st_mtime_ns)
        body = self.cache.get(key)
        if body is None:
            body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
            self.cache[key] = body
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A browser that drops a connection (a request it no longer needs) is not an error."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class SiteServer:
    """``with SiteServer(directory) as s: s.url`` -- the site at ``http://127.0.0.1:<port>/``.

    Parameters
    ----------
    directory : path
        The built site (``_build/html``).
    port : int
        0 (the default) picks a free port.
    """

    def __init__(self, directory, port: int = 0):
        directory = Path(directory)
        if not (directory / "index.html").exists():
            raise ValueError(f"directory must be a built site with an index.html, got {directory}")
        handler = type("Handler", (_Handler,), {"missing": [], "cache": {}})
        self.missing = handler.missing
        self._server = _Server(("127.0.0.1", port), functools.partial(handler, directory=str(directory)))
        self.url = f"http://127.0.0.1:{self._server.server_port}/"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "SiteServer":
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._server.shutdown()
        self._server.server_close()


if __name__ == "__main__":
    folder = sys.argv[1] if len(sys.argv) > 1 else "_build/html"
    with SiteServer(folder, int(sys.argv[2]) if len(sys.argv) > 2 else 8000) as server:
        print(f"serving {folder} at {server.url} (gzip); Ctrl-C stops")
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
