"""Untrusted text in CI logs is inert (issue 42, item 7): what an example printed reaches a GitHub Actions
log without a workflow command the runner would obey (``store/untrusted.py``: ``inert_commands``, ``log_text``).
The runner is simulated as it reads a log (``runner_obeys``)."""

from __future__ import annotations

import re

import pytest
from pytorch_notes import capture
from pytorch_notes.capture.progress import PlainProgress
from pytorch_notes.store.untrusted import inert_commands, log_text, terminal_text

# Forged annotations and a mask (GitHub's runner trims whitespace, the ideographic space included, before it
# looks for "::"), the old syntax anywhere in a line, line ends the runner reads (\r) or a terminal might, and
# an attempt to stop and resume commands with a token of the example's own.
HOSTILE = ("::error file=README.md,line=1::forged annotation\n  ::add-mask::ghp_forged\n"
           "\u3000::warning::wide space\n\t::notice::tab\n##[error]the old syntax and ##[group]inside a line\n"
           "ok\r::error::after a carriage return\x85::error::nel\u2028::error::ls\n"
           "::stop-commands::mine\n::mine::\n::error::after its own resume")


def runner_obeys(log: str) -> list[str]:
    """The workflow commands GitHub's runner would act on in ``log``, read as it reads them
    (actions/runner: lines as ``StreamReader.ReadLine`` ends them, at ``\\n``, ``\\r\\n`` and ``\\r``; a line
    that starts with ``::`` once ``Trim()`` removed its whitespace, ``ActionCommand.TryParseV2``; ``##[``
    anywhere in a line, ``TryParse``; nothing while commands are stopped, until the line ``::<token>::``)."""
    obeyed, token = [], None
    for line in re.split(r"\r\n|\r|\n", log):
        trimmed = line.strip()
        if token is not None:
            if trimmed == f"::{token}::":
                token = None
            continue
        if trimmed.startswith("::"):
            m = re.match(r"::stop-commands::(.+)$", trimmed)
            if m:
                token = m.group(1)
            else:
                obeyed.append(trimmed)
        elif "##[" in line:
            obeyed.append(line)
    return obeyed


def test_the_simulated_runner_obeys_the_hostile_text_as_it_is():
    assert len(runner_obeys(HOSTILE)) == 7, runner_obeys(HOSTILE)


@pytest.mark.parametrize("github", [True, False])
def test_log_text_leaves_nothing_to_obey_and_shows_every_word(github):
    env = {"GITHUB_ACTIONS": "true"} if github else {}
    out = log_text(HOSTILE, environ=env)
    assert runner_obeys(out) == [], out
    for words in ("forged annotation", "ghp_forged", "the old syntax", "after its own resume"):
        assert words in out, words
    lines = out.split("\n")
    if github:
        start = re.fullmatch(r"::stop-commands::([0-9a-f]{32})", lines[0])
        assert start and lines[-1] == f"::{start.group(1)}::", "the text stands between stop and resume"
        assert start.group(1) not in log_text(HOSTILE, environ=env), "a new token each time"
    else:
        assert not any(line.startswith("::stop-commands::") for line in lines)


def test_the_change_is_visible_and_small():
    assert inert_commands("::error::x\n  ::y\nplain :: text ##[z") == ": :error::x\n  : :y\nplain :: text # #[z"
    assert inert_commands(inert_commands("::a")) == ": :a"
    assert terminal_text("##vso[task.setvariable]x") == "# #vso[task.setvariable]x"


@pytest.fixture
def cpu_here(monkeypatch):
    monkeypatch.setattr("pytorch_notes.execute.supervise.this_device_kind", lambda: "cpu")


def test_a_failing_example_s_message_is_inert_in_the_capture_s_log(write_example, examples_dir, capsys, cpu_here,
                                                                     monkeypatch):
    """Under GitHub Actions: the run's failure, as the progress line, the closing list of failures and
    ``--list`` print it (``capture/progress.py``, ``capture/cli.py``)."""
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    write_example("ch/a.py", f"# %%\nprint({HOSTILE!r})\nraise ValueError({HOSTILE!r})\n")
    assert capture.main([], examples_dir) == 1
    run = capsys.readouterr()
    assert capture.main(["--list"], examples_dir) == 1
    listed = capsys.readouterr()
    for log in (run.out, run.err, listed.out + listed.err):
        assert runner_obeys(log) == [], log
    assert "forged annotation" in run.out and "forged annotation" in run.err and "forged annotation" in listed.err
    assert "::stop-commands::" in run.out and "::stop-commands::" in listed.err


def test_progress_wraps_only_what_the_example_said(capsys, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    progress = PlainProgress(1)
    progress.finished("examples/a/b.py", "FAILED (error)", "examples/a/b.py:2: ValueError: " + HOSTILE)
    out = capsys.readouterr().out
    assert out.startswith("[1/1] examples/a/b.py: FAILED (error)\n::stop-commands::")
    assert runner_obeys(out) == []
