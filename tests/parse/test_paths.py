"""Where examples are (issue 26, items 4 and 6): nothing outside ``examples/`` is parsed as an example.

A hostile contributor can commit a symbolic link (an example pointing at ``/etc/passwd``, a chapter folder
pointing anywhere), a folder named ``x.py`` or a file that is not UTF-8: ``discover_examples`` lists each, so
that every consumer reports it, and ``parse_example`` refuses it naming the file. The same files met by the
other stages: tests/commands/test_capture_paths.py (``make capture``), tests/store/test_store_paths.py (the
store's folders and forged records), tests/site/test_build_paths.py (the build).
"""

from __future__ import annotations

import pytest
from pytorch_notes.parse import ExampleError, discover_examples, parse_example

OK = '# %%\nprint("hello")\n'


# --- examples: discovery and parsing -------------------------------------------------------------

def test_a_link_to_a_file_outside_is_refused_naming_the_link_and_its_target(examples_dir, outside):
    link = examples_dir / "ch" / "leak.py"
    link.parent.mkdir()
    link.symlink_to(outside / "secret.py")
    assert discover_examples(examples_dir) == [link], "listed, so that every consumer reports it"
    with pytest.raises(ExampleError) as err:
        parse_example(link, examples_dir)
    assert str(err.value).startswith(f"{link}:1: resolves outside examples/ (-> {outside / 'secret.py'})")


def test_a_linked_chapter_folder_is_refused(examples_dir, outside):
    (examples_dir / "ch").symlink_to(outside, target_is_directory=True)
    (path,) = discover_examples(examples_dir)
    with pytest.raises(ExampleError, match=r"ch:1: resolves outside examples/ \(-> .*outside\)"):
        parse_example(path, examples_dir)


def test_a_link_inside_examples_is_refused_too(write_example, examples_dir):
    write_example("ch/real.py", OK)
    (examples_dir / "ch" / "alias.py").symlink_to("real.py")
    problems = []
    for path in discover_examples(examples_dir):
        try:
            parse_example(path, examples_dir)
        except ExampleError as exc:
            problems.append(str(exc))
    assert len(problems) == 1 and "alias.py:1: is a symbolic link (-> " in problems[0], problems


def test_a_folder_named_like_an_example_is_refused(examples_dir):
    (examples_dir / "ch" / "x.py").mkdir(parents=True)
    (path,) = discover_examples(examples_dir)
    with pytest.raises(ExampleError, match=r"ch/x\.py:1: is a directory, not an example file"):
        parse_example(path, examples_dir)


def test_a_file_that_is_not_utf8_is_refused_naming_file_and_line(examples_dir):
    path = examples_dir / "ch" / "latin.py"
    path.parent.mkdir()
    path.write_bytes(b'# %%\nx = 1\nprint("caf\xe9")\n')
    with pytest.raises(ExampleError) as err:
        parse_example(path, examples_dir)
    assert str(err.value).startswith(f"{path}:3: not UTF-8: byte 0xe9"), str(err.value)


def test_a_file_outside_the_examples_folder_is_refused(examples_dir, outside):
    with pytest.raises(ExampleError, match="not inside"):
        parse_example(outside / "secret.py", examples_dir)
