"""Each distinct Python code block of a build highlighted once (a Markdown extension, ``on_config``).

A chapter shows an example's code once per device tab, so a build highlights most code blocks twice
(pymdownx.superfences with Pygments). ``SameCodeOnce`` registers a fence for ``python`` through
SuperFences' public ``extend_super_fences``: it validates the fence as SuperFences' own does
(``highlight_validator``) and hands a block it has not seen in this build to SuperFences' own highlighter,
keeping the HTML (``Highlights``, on the plugin, emptied by every build) for the next block with the same
code, language, options, classes, id and attributes. The HTML is the same either way: without line
anchors or line spans (this site configures neither), a block's HTML depends on nothing else; with them,
every block is highlighted. Pages with such blocks are converted again only when their Markdown cache
(``mdcache``) misses: a cold build, or one after the build code or ``mkdocs.yml`` changed.
"""

from __future__ import annotations

from markdown import Extension


class Highlights:
    """The HTML of the code blocks highlighted in this build (``clear`` at its start), by their inputs."""

    def __init__(self) -> None:
        self.html: dict[tuple, str] = {}

    def clear(self) -> None:
        self.html.clear()


class SameCodeOnce(Extension):
    """Registers the ``python`` fence of ``highlights`` with pymdownx.superfences (an extension listed before)."""

    def __init__(self, highlights: Highlights, **kwargs) -> None:
        super().__init__(**kwargs)
        self.highlights = highlights

    def extendMarkdown(self, md) -> None:  # noqa: N802 - Python-Markdown's name
        from pymdownx.superfences import SuperFencesCodeExtension, highlight_validator  # noqa: PLC0415

        fences = next((e for e in md.registeredExtensions if isinstance(e, SuperFencesCodeExtension)), None)
        if fences is None:
            return
        known = self.highlights.html

        def validator(language, inputs, options, attrs, md) -> bool:
            md.preprocessors["fenced_code_block"].get_hl_settings()  # as SuperFences' own validator does
            return highlight_validator(language, inputs, options, attrs, md)

        def formatter(src="", language="", options=None, md=None, **kwargs) -> str:
            block = md.preprocessors["fenced_code_block"]
            anchored = block.line_spans or block.line_anchors or block.anchor_linenums  # ids count the blocks
            key = (src, language, tuple(sorted((options or {}).items())), tuple(kwargs.get("classes") or ()),
                   kwargs.get("id_value"), tuple(sorted((kwargs.get("attrs") or {}).items())))
            if anchored or key not in known:
                known[key] = block.highlight(src=src, language=language, options=dict(options or {}), md=md,
                                             **kwargs)
            return known[key]

        fences.extend_super_fences("python", formatter, validator, lambda md: None)
