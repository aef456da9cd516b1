"""What Discord refuses in a message it is sent: a 400 with code 50035, "Invalid Form Body".

Its documented limits: 2,000 characters of content; 10 embeds, each with a title of 256,
a description of 4,096, 25 fields (names of 256, values of 1,024), a footer of 2,048, and
6,000 characters in all; 5 rows of components, each of 5 buttons; a button's label of 80
and custom_id of 100 characters, each custom_id once in a message, and a link button with
a URL instead.
"""

from __future__ import annotations

from typing import Any

CONTENT = 2000
EMBEDS = 10
TITLE, DESCRIPTION, FIELDS, FIELD_NAME, FIELD_VALUE, FOOTER, EMBED_TOTAL = (
    256,
    4096,
    25,
    256,
    1024,
    2048,
    6000,
)
ROWS, PER_ROW, LABEL, CUSTOM_ID = 5, 5, 80, 100
LINK = 5


def _embed_problems(index: int, embed: dict[str, Any]) -> list[str]:
    where = f"embeds.{index}"
    title, description = str(embed.get("title") or ""), str(embed.get("description") or "")
    footer = str((embed.get("footer") or {}).get("text") or "")
    fields = embed.get("fields") or []
    found = []
    if len(title) > TITLE:
        found.append(f"{where}.title is longer than {TITLE}")
    if len(description) > DESCRIPTION:
        found.append(f"{where}.description is longer than {DESCRIPTION}")
    if len(footer) > FOOTER:
        found.append(f"{where}.footer.text is longer than {FOOTER}")
    if len(fields) > FIELDS:
        found.append(f"{where}.fields has more than {FIELDS}")
    total = len(title) + len(description) + len(footer)
    for n, item in enumerate(fields):
        name, value = str(item.get("name") or ""), str(item.get("value") or "")
        total += len(name) + len(value)
        if not name or len(name) > FIELD_NAME:
            found.append(f"{where}.fields.{n}.name is empty or longer than {FIELD_NAME}")
        if not value or len(value) > FIELD_VALUE:
            found.append(f"{where}.fields.{n}.value is empty or longer than {FIELD_VALUE}")
    if total > EMBED_TOTAL:
        found.append(f"{where} holds more than {EMBED_TOTAL} characters")
    return found


def _component_problems(rows: list[dict[str, Any]]) -> list[str]:
    found = []
    if len(rows) > ROWS:
        found.append(f"components has more than {ROWS} rows")
    seen: set[str] = set()
    for r, row in enumerate(rows):
        children = row.get("components") or []
        if row.get("type") != 1 or not children or len(children) > PER_ROW:
            found.append(f"components.{r} is not a row of 1 to {PER_ROW} components")
        for c, child in enumerate(children):
            where = f"components.{r}.components.{c}"
            if len(str(child.get("label") or "")) > LABEL:
                found.append(f"{where}.label is longer than {LABEL}")
            if child.get("style") == LINK:
                if not child.get("url"):
                    found.append(f"{where} is a link without a url")
                continue
            custom_id = str(child.get("custom_id") or "")
            if not custom_id or len(custom_id) > CUSTOM_ID:
                found.append(f"{where}.custom_id is empty or longer than {CUSTOM_ID}")
            elif custom_id in seen:
                found.append(f"{where}.custom_id is used twice in the message")
            seen.add(custom_id)
    return found


def problems(body: dict[str, Any]) -> list[str]:
    """What Discord would refuse in the message ``body`` a write sends (none: it is taken)."""
    found = []
    if len(str(body.get("content") or "")) > CONTENT:
        found.append(f"content is longer than {CONTENT}")
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS:
        found.append(f"embeds has more than {EMBEDS}")
    for index, embed in enumerate(embeds):
        found += _embed_problems(index, embed)
    found += _component_problems(body.get("components") or [])
    return found


def invalid_form(found: list[str]) -> dict[str, Any]:
    """Discord's answer to a body with ``found`` problems."""
    return {"message": "Invalid Form Body", "code": 50035, "errors": {"problems": found}}


def written(method: str, path: str, body: Any) -> dict[str, Any] | None:
    """The message a call writes, if it writes one: a channel message or a token's webhook
    message sent or edited, or the message of an interaction's answer (types 4 and 7)."""
    if method not in ("POST", "PATCH") or not isinstance(body, dict):
        return None
    if path.startswith("/interactions/"):
        data = body.get("data")
        return data if body.get("type") in (4, 7) and isinstance(data, dict) else None
    if path.startswith("/webhooks/") or "/messages" in path:
        return body
    return None
