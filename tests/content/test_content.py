"""The real course: both languages in step, every example embedded, fresh and runnable."""

from __future__ import annotations

import io
import re
import tokenize
from collections import defaultdict

import pytest
from pytorch_notes.capture.report import orphans
from pytorch_notes.execute.supervise import run_example
from pytorch_notes.pages import (
    all_embeds,
    embed_mismatches,
    html_in_headings,
    language_pages,
    missing_twins,
    orphan_examples,
)
from pytorch_notes.parse import ExampleError, discover_examples, parse_example, resolve_example
from pytorch_notes.settings import EXAMPLES_DIR, LANGUAGES, display_path
from pytorch_notes.store.proof import current_environment, unproved
from pytorch_notes.store.records import StoreError, freshness
from pytorch_notes.store.validate import machine_paths
from pytorch_notes.twins import lags

EMBEDS = all_embeds()
EMBEDDED = sorted({e.rel for e in EMBEDS})


def test_both_languages_have_the_same_pages():
    missing = missing_twins()
    assert not missing, "\n".join(missing)


def test_no_heading_holds_an_html_tag():
    """A tag in a heading outside backticks vanishes for the reader and swallows the page's search entries."""
    found = [p for lang in LANGUAGES for name, path in language_pages(lang).items()
             for p in html_in_headings(path.read_text(encoding="utf-8"), display_path(path))]
    assert not found, "\n".join(found)


def test_html_in_headings_names_the_page_and_line():
    page = "# T\n\n```\n# <not> a heading\n```\n### Quoted: \"Can't pickle <function <lambda>>\"\n" \
           "### In code: `<lambda>`, and a comparison: element < 0\n"
    assert html_in_headings(page, "docs/en/x.md") == [
        "docs/en/x.md:6: the heading holds <lambda>, which Markdown keeps as an HTML tag; write the text in backticks"]


def test_twins_embed_the_same_examples_in_the_same_order():
    mismatches = embed_mismatches()
    assert not mismatches, "\n".join(mismatches)


def test_no_translation_lags_behind():
    """A page changed in one language since the pair was last synced (see scripts/twins.py)."""
    found = lags()
    assert not found, "\n".join(lag.describe() for lag in found)


def test_every_embed_names_an_existing_example():
    bad = [f"{e.page}:{e.line}: examples/{e.rel} does not exist" for e in EMBEDS
           if not resolve_example(e.rel).is_file()]
    assert not bad, "\n".join(bad)


def test_every_example_is_embedded():
    orphans = orphan_examples(discover_examples(), EXAMPLES_DIR)
    assert not orphans, "examples embedded in no page: " + ", ".join(orphans)


def test_every_embedded_example_has_fresh_outputs():
    where = defaultdict(list)
    for e in EMBEDS:
        where[e.rel].append(f"{e.page}:{e.line}")
    problems = []
    for rel in EMBEDDED:
        path = resolve_example(rel)
        if not path.is_file():
            continue
        ex = parse_example(path)
        state = freshness(ex).state
        if state != "fresh" and not (state == "missing" and ex.needs_cuda):
            problems.append(f"examples/{rel}: outputs {state} (embedded at {where[rel][0]}); "
                            f"run `make capture ARGS=examples/{rel}`")
    assert not problems, "\n".join(problems)


def test_stored_tracebacks_show_no_machine_paths():
    """Outputs do not depend on where the capture ran (runner.frame_path)."""
    records = [dev.record for rel in EMBEDDED for dev in freshness(parse_example(resolve_example(rel))).devices.values()
               if dev.record is not None]
    found = {rec.example: paths[0] for rec in records if (paths := machine_paths(rec))}
    assert not found, "tracebacks with absolute paths (re-capture): " + ", ".join(
        f"examples/{rel}: {path}" for rel, path in sorted(found.items()))


def test_the_store_holds_no_orphan_records():
    """Every file in examples/_outputs/ belongs to a current example and device (make capture ARGS=--prune)."""
    found = orphans()
    assert not found, "\n".join(f"{display_path(p)}: {why}; remove with `make capture ARGS=--prune`"
                                 for p, why in found)


def test_course_has_chapters_and_examples():
    assert len(language_pages(LANGUAGES[0])) >= 4 and len(EMBEDDED) >= 3


def _examples_to_run(config) -> tuple[list[str], dict[str, str]]:
    """(examples this session runs, {example: why it runs}); see pytorch_notes.store.proof."""
    if config.getoption("--run-examples") == "all":
        return EMBEDDED, dict.fromkeys(EMBEDDED, "--run-examples=all")
    env = current_environment()
    why = {}
    for rel in EMBEDDED:
        try:
            reason = unproved(parse_example(resolve_example(rel)), env)
        except (ExampleError, StoreError, OSError) as exc:
            reason = str(exc)  # the run (or the freshness test) reports it
        if reason:
            why[rel] = reason
    return sorted(why), why


def pytest_generate_tests(metafunc):
    if "example_to_run" in metafunc.fixturenames:
        run, why = _examples_to_run(metafunc.config)
        metafunc.parametrize("example_to_run", [pytest.param(rel, id=rel) for rel in run])
    if "proved_example" in metafunc.fixturenames:
        run, _ = _examples_to_run(metafunc.config)
        metafunc.parametrize("proved_example", [rel for rel in EMBEDDED if rel not in set(run)] or [None])


@pytest.mark.examples
def test_embedded_example_runs_on_this_machine(example_to_run):
    """Each embedded example the store cannot vouch for runs in a fresh process within its declared timeout."""
    rel = example_to_run
    ex = parse_example(resolve_example(rel))
    if ex.needs_cuda:
        import torch
        if not torch.cuda.is_available():
            pytest.skip(f"examples/{rel} needs CUDA; this machine has none")
    result = run_example(ex)
    assert result.ok, f"{result.location()}: {result.status}: {result.message}\n{result.process_output[-2000:]}"


def test_examples_not_run_are_proved_by_their_records(proved_example):
    """An example this session does not run has a fresh record of this machine's device kind, captured
    with the same Python, torch, system and library versions (store.proof): re-running it would repeat it."""
    if proved_example is None:
        pytest.skip("every embedded example runs in this session")
    ex = parse_example(resolve_example(proved_example))
    assert unproved(ex, current_environment()) is None


def _code_only(source: str) -> str:
    """``source`` without its comments and string literals: what the example calls, not what it says."""
    kept = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in (tokenize.COMMENT, tokenize.STRING, tokenize.NL, tokenize.NEWLINE):
            kept.append(tok.string)
    return " ".join(kept).replace(" . ", ".")


# The APIs a practitioner of 2026 uses that the course must call in live code (issue 41): each is in the
# code (not a comment or a string) of an example both languages embed.
PRACTITIONER_APIS = ("requires_grad_", "torch.utils.checkpoint", "torch.distributed.checkpoint", "to_empty",
                     "nn.TransformerEncoder", "key_padding_mask", "flex_attention", "sdpa_kernel", "mark_dynamic",
                     "torch._dynamo.explain", "channels_last", "persistent_workers", "prefetch_factor",
                     "get_worker_info", "fp32_precision", "quantize_")


def test_the_course_calls_the_apis_a_practitioner_needs():
    code = "\n".join(_code_only(c.source) for rel in EMBEDDED for c in parse_example(resolve_example(rel)).cells)
    missing = [api for api in PRACTITIONER_APIS if not re.search(rf"(?<![\w.]){re.escape(api)}(?!\w)", code)
               and not re.search(rf"\.{re.escape(api)}(?!\w)", code)]
    assert not missing, f"no embedded example calls {missing} in its code"


def test_every_chapter_has_two_solved_exercises():
    """A chapter (a page that embeds examples) embeds at least two ``exercise_*`` examples, its solutions."""
    short = []
    for lang in LANGUAGES:
        for name in language_pages(lang):
            embeds = [e for e in EMBEDS if e.page == f"docs/{lang}/{name}"]
            solutions = {e.rel for e in embeds if e.rel.rsplit("/", 1)[1].startswith("exercise_")}
            if embeds and len(solutions) < 2:
                short.append(f"docs/{lang}/{name}: {len(solutions)} solved exercise(s)")
    assert not short, "\n".join(short)
