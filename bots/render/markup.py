"""A tiny markup both platforms can show: lines of spans, some bold.

The renderer builds ``Text``; Telegram sends ``text.html()`` with
``parse_mode="HTML"``, Discord sends ``text.markdown()``, and tests read
``text.plain()``.

>>> text = Text.of(Line.of(Span("Basra", bold=True), Span(" 10♦")))
>>> text.plain(), text.html(), text.markdown()
('Basra 10♦', '<b>Basra</b> 10♦', '**Basra** 10♦')
>>> clock = Text.of(Line.of(Span("ends ", bold=True), Span("2:00", bold=True, stamp=1767229200)))
>>> clock.plain(), clock.html(), clock.markdown()
('ends 2:00', '<b>ends </b><b>2:00</b>', '**ends <t:1767229200:R>**')
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

_MARKDOWN_SPECIAL = re.compile(r"([\\*_~`|>#\[\]()-])")


@dataclass(frozen=True, slots=True)
class Span:
    """Some text, maybe bold. A ``stamp`` (epoch seconds) is a moment Discord shows as a
    live countdown (``<t:…:R>``); ``text`` is what every other form shows instead."""

    text: str
    bold: bool = False
    stamp: int | None = None


@dataclass(frozen=True, slots=True)
class Line:
    spans: tuple[Span, ...]

    @classmethod
    def of(cls, *parts: Span | str) -> Line:
        return cls(tuple(p if isinstance(p, Span) else Span(p) for p in parts))

    def plain(self) -> str:
        return "".join(s.text for s in self.spans)


@dataclass(frozen=True, slots=True)
class Text:
    """A block of lines; an empty line is a paragraph break."""

    lines: tuple[Line, ...]

    @classmethod
    def of(cls, *lines: Line | str) -> Text:
        return cls(tuple(line if isinstance(line, Line) else Line.of(line) for line in lines))

    def plain(self) -> str:
        return "\n".join(line.plain() for line in self.lines)

    def html(self) -> str:
        """For Telegram's ``parse_mode="HTML"``."""

        def span(s: Span) -> str:
            text = html.escape(s.text, quote=False)
            return f"<b>{text}</b>" if s.bold and text else text

        return "\n".join("".join(span(s) for s in line.spans) for line in self.lines)

    def markdown(self) -> str:
        """For Discord (special characters escaped; a run of bold spans is one bold run)."""

        def run(spans: list[Span]) -> str:
            inner = "".join(f"<t:{s.stamp}:R>" if s.stamp is not None else _escape_md(s.text) for s in spans)
            return f"**{inner}**" if spans[0].bold and inner else inner

        def line(spans: tuple[Span, ...]) -> str:
            runs: list[list[Span]] = []
            for s in spans:
                if runs and runs[-1][0].bold == s.bold:
                    runs[-1].append(s)
                else:
                    runs.append([s])
            return "".join(run(r) for r in runs)

        return "\n".join(line(ln.spans) for ln in self.lines)

    def __add__(self, other: Text) -> Text:
        return Text(self.lines + other.lines)


def _escape_md(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)
