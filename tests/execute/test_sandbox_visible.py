"""Stage 2, execute: bubblewrap binds less, every place an example may write is bounded, credentials are
scrubbed by their shape (issue 42, item 5); and every run of an example or a download goes through the
capture's runner and sandbox, which ``PYTORCH_NOTES_REQUIRE_SANDBOX`` makes mandatory (item 2). What the
sandbox shows of the checkout is tested in test_sandbox.py (``test_only_what_a_run_needs_is_visible``)."""

from __future__ import annotations

import json
import uuid

import pytest
from conftest import require_bwrap
from pytorch_notes.execute.supervise import run_example
from pytorch_notes.parse import parse_example
from pytorch_notes.store.layout import failure_path, record_path
from test_sandbox import capture_here

# Made at run time, so no token is in the example's source: "ghp_" + 36 characters, and so on.
TOKENS = {"github": '"gh" + "p_" + "a1B2" * 9', "fine-grained": '"github" + "_pat_11AB" + "x9" * 20',
          "openai": '"s" + "k-proj-" + "Ab3" * 8', "aws": '"AK" + "IAIOSFODNN7EXAMPLE"',
          "slack": '"xo" + "xb-1234-5678-abcdefghij"',
          "key": '"-----BEGIN RSA " + "PRIVATE KEY-----\\nMIIEow\\nAAA=\\n-----END RSA PRIVATE KEY-----"'}


def test_token_patterns_are_scrubbed_from_stored_text_whatever_their_source(write_example, examples_dir, capsys):
    """No variable of the capture holds these tokens: they come from the example itself (a file it read,
    a value it made up). Neither the record nor the failure marker stores them."""
    write_example("ch/tokens.py", "# %%\n" + "".join(f"print({name!r}, {expr})\n" for name, expr in TOKENS.items()))
    write_example("ch/fails.py", f"# %%\nraise ValueError({TOKENS['github']} + ' ' + {TOKENS['aws']})\n")
    done = capture_here(examples_dir, capsys)
    assert done.returncode == 1, done.stdout + done.stderr
    text = record_path("ch/tokens.py", "cpu", examples_dir).read_text(encoding="utf-8")
    out = "".join(o["text"] for o in json.loads(text)["cells"][0]["outputs"])
    assert out == "".join(f"{name} [secret removed]\n" for name in TOKENS), out
    marker = json.loads(failure_path("ch/fails.py", "cpu", examples_dir).read_text(encoding="utf-8"))
    assert marker["message"] == "ValueError: [secret removed] [secret removed]", marker["message"]


def test_words_that_look_like_tokens_are_kept():
    from pytorch_notes.store.tokens import scrub_text

    for text in ("task-0123456789abcdefghij", "sk-learn-is-not-a-key-at-all", "ghp_short", "AKIAIOSFODNN7EXAMPLEX",
                 "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"):
        assert scrub_text(text) == text


def test_bubblewraps_own_root_and_dev_are_read_only_and_tmp_is_sized(write_example, examples_dir):
    """bubblewrap's root (where the folders above the checkout's bound ones are) and ``/dev`` are memory of no
    bounded size: they are read-only once set up; ``/tmp`` and ``/dev/shm`` are sized (test_sandbox.py)."""
    require_bwrap()
    r = run_example(parse_example(write_example("ch/fill.py", '''
        # %%
        import os
        for path in ("/filler", "/dev/filler", "/tmp/filler", "/dev/shm/filler"):
            try:
                with open(path, "wb") as f:
                    f.write(b"x" * 1024)
                print(os.path.basename(os.path.dirname(path)) or "/", "written")
            except OSError as exc:
                print(os.path.basename(os.path.dirname(path)) or "/", exc.strerror)
        with open("/dev/null", "w") as f:
            print("devices", f.write("still work"))
        '''), examples_dir), mode="bwrap")
    assert r.ok, r.message
    out = "".join(o["text"] for o in r.cells[0].outputs if o["type"] == "stream")
    assert out == "/ Read-only file system\ndev Read-only file system\ntmp written\nshm written\ndevices 10\n", out


# --- item 2: one way to run an example -----------------------------------------------------------------

def test_the_variable_makes_the_sandbox_mandatory(monkeypatch, tmp_path):
    from pytorch_notes.execute import sandbox

    monkeypatch.setattr(sandbox, "bwrap_status", lambda: (None, "bwrap cannot start here: test"))
    monkeypatch.delenv(sandbox.REQUIRE, raising=False)
    assert sandbox.Sandbox(tmp_path).isolation == "supervised"
    monkeypatch.setenv(sandbox.REQUIRE, "1")
    with pytest.raises(sandbox.SandboxError, match="PYTORCH_NOTES_REQUIRE_SANDBOX is set, but bwrap cannot start"):
        sandbox.Sandbox(tmp_path)
    assert sandbox.Sandbox(tmp_path, mode="supervised").isolation == "supervised"  # asked for by name
    monkeypatch.setenv(sandbox.REQUIRE, "0")
    assert sandbox.Sandbox(tmp_path).isolation == "supervised"


def test_run_script_runs_a_folder_copy_in_the_sandbox(tmp_path, monkeypatch):
    """A script of a chapter's zip imports its neighbour and writes into its folder: it runs on a copy,
    as ``python <name>`` there, with the example's environment."""
    from pytorch_notes.execute.script import run_script

    require_bwrap()
    monkeypatch.setenv("PN_TEST_CALLER_TOKEN", uuid.uuid4().hex)
    (tmp_path / "helper.py").write_text("VALUE = 42\n", encoding="utf-8")
    (tmp_path / "main.py").write_text('''import os, sys
import helper
print(__name__, helper.VALUE, sys.argv[0].endswith("main.py"), "PN_TEST_CALLER_TOKEN" in os.environ)
open("written.txt", "w").write("x")
print(sorted(os.listdir(".")))
raise SystemExit(3)
''', encoding="utf-8")
    done = run_script(tmp_path / "main.py", timeout_s=30)
    assert done.isolation.startswith("bwrap") and done.status == "failed", done
    assert done.stdout == "__main__ 42 True False\n['helper.py', 'main.py', 'written.txt']\n", done.stdout
    assert "SystemExit: 3" in done.stderr, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["helper.py", "main.py"]
