"""Markers for msgids that are translated later, where the language is known.

``pybabel extract`` and ``python -m bots.i18n check`` find them through the
keywords in ``babel.cfg``; at runtime they only hand their arguments back.

>>> N_("floor")
'floor'
>>> NP_("suit", "hearts")
('suit', 'hearts')
"""

from __future__ import annotations


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction; translate it later with ``Translator.gettext``."""
    return msgid


def NP_(context: str, msgid: str) -> tuple[str, str]:
    """Mark a msgid with a context; translate later with ``Translator.pgettext(*pair)``."""
    return (context, msgid)
