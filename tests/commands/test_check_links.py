"""``make check-links``: external links are found with their line and checked (against a local server)."""

from __future__ import annotations

import http.server
import threading

import pytest
from pytorch_notes import check_links
from pytorch_notes.check_links import Link, find_links


def test_links_are_found_with_page_and_line_outside_code():
    md = ("# T\n\nSee [docs](https://pytorch.org/docs/stable/index.html).\n"
          "```bash\ncurl https://example.invalid/in-code\n```\n"
          "Bare https://example.org/x, and <https://example.org/y>。\n")
    assert find_links(md, "docs/zh/t.md") == [
        Link("docs/zh/t.md", 3, "https://pytorch.org/docs/stable/index.html"),
        Link("docs/zh/t.md", 7, "https://example.org/x"),
        Link("docs/zh/t.md", 7, "https://example.org/y"),
    ]


@pytest.fixture
def local_server():
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_HEAD(self):  # noqa: N802 - http.server's naming
            self.send_response(200 if self.path == "/ok" else 405 if self.path == "/no-head" else 404)
            self.end_headers()

        def do_GET(self):  # noqa: N802
            self.send_response(200 if self.path in ("/ok", "/no-head") else 404)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_broken_links_are_reported_and_fail(local_server, tmp_path, capsys):
    page = tmp_path / "docs" / "zh" / "p.md"
    page.parent.mkdir(parents=True)
    page.write_text(f"[a]({local_server}/ok)\n[b]({local_server}/no-head)\n\n[c]({local_server}/gone)\n",
                    encoding="utf-8")
    assert check_links.main([str(page), "--timeout", "5"], tmp_path / "docs") == 1
    out = capsys.readouterr().out
    assert f"docs/zh/p.md:4: {local_server}/gone -> HTTP 404" in out
    assert "/ok" not in out.split("check-links:")[0] and "/no-head" not in out.split("check-links:")[0]
    assert "3 external URL(s) in 1 page(s), 1 broken" in out
