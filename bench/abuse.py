"""Careless and hostile people against the real bot: what holds, counted from outside.

    python bench/abuse.py [--lang en|ar] [--database postgresql://...]

One real ``python -m bots.telegram`` process polls the fake Bot API over HTTP, which
refuses with 429 whatever breaks Telegram's limits. Two groups each play a 1-v-1
(people thinking 1 to 3 s a card). Meanwhile:

- a player forwards their hand to their own chat and presses its card buttons there,
  and forwards it to a third person, who presses them too;
- presses carry data no button shows (old, doctored, garbage), on real hand messages;
- updates the bot never asked for or cannot read (edited messages, stickers, channel
  posts, a member leaving, empty and odd callback data, commands with junk);
- a player presses the same card thirty times in a second;
- a third person sends ``/help`` thirty times in ten seconds in the first group;
- a player resigns right after a play, while the other's turn is being drawn.

Printed at the end: 429s (by scope), tracebacks in the bot's log, card buttons still
live after the matches ended, whether a group message ever showed a hand's card list,
presses left unanswered, and the first group's lag p99 before, during and after the
``/help`` flood (a confirm answered → the group shows that play) beside the second
group's. ``--database`` is a PostgreSQL URL (a new schema each run); the default is an
SQLite file in a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# bench/telegram.py is named like the python-telegram-bot package: keep its folder off the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from bench.capacity import Match, confirmed, new_database, press_card, timed_group_lags, wait_for  # noqa: E402
from tests.fakes import CallbackQueryRecord, FakeChat, FakeMessage, FakeTelegram, FakeUser  # noqa: E402
from tests.fakes.telegram_http import HttpFront  # noqa: E402
from tests.telegram.live import percentile, shown_version  # noqa: E402
from tests.telegram.test_process import Process, data_for  # noqa: E402
from tests.telegram.world import CARD_LABEL, buttons_with  # noqa: E402

GARBAGE = ["", "x", "card", "card:", "card:99:99", "play:-1", "play:0:0:0:0", "☃" * 40, "0" * 64,
           "resign", "join:nope", "start:1", "hint:abc", "lang:xx", "card:1:AS:zz"]


def hand_of(server: FakeTelegram, user: FakeUser) -> FakeMessage | None:
    """The newest message in ``user``'s chat from the bot with card or confirm buttons."""
    for message in reversed(server.messages(server.private_chat(user), bot_only=True)):
        if data_for(message, "card") or data_for(message, "play"):
            return message
    return None


def forge(server: FakeTelegram, user: FakeUser, message: FakeMessage, data: str) -> None:
    """A press carrying ``data`` that no button shows."""
    query_id = server.new_query_id()
    update = server._produce({"callback_query": {
        "id": query_id, "from": user.to_api(), "message": message.to_api(),
        "chat_instance": "1", "data": data}})
    server.callback_queries[query_id] = CallbackQueryRecord(query_id, user, message, data, update.update_id)
    server.queue_update(update)


def odd_updates(server: FakeTelegram, user: FakeUser, group: FakeChat) -> list[dict[str, Any]]:
    """Updates a bot meets in the wild that it has nothing to do with, or cannot read."""
    me, chat = user.to_api(), {"id": group.id, "type": "group", "title": group.title}
    when = int(time.time())
    base = {"message_id": 900_000, "date": when, "chat": chat, "from": me}
    return [
        {"edited_message": {**base, "text": "/newgame", "edit_date": when}},
        {"message": {**base, "sticker": {"file_id": "s", "file_unique_id": "s", "width": 1, "height": 1,
                                         "is_animated": False, "is_video": False, "type": "regular"}}},
        {"channel_post": {"message_id": 1, "date": when, "chat": {"id": -100999, "type": "channel"},
                          "text": "/newgame"}},
        {"message": {**base, "left_chat_member": me}},
        {"message": {**base, "text": "/newgame@SomeOtherBot"}},
        {"message": {**base, "text": "/settings clock -5 ☃"}},
        {"message": {**base, "text": "/" + "x" * 200}},
        {"my_chat_member": {"chat": chat, "from": me, "date": when,
                            "old_chat_member": {"status": "member", "user": me},
                            "new_chat_member": {"status": "member", "user": me}}},
    ]


async def play(front: HttpFront, server: FakeTelegram, match: Match, plays: int, rng: random.Random,
               stop: asyncio.Event) -> None:
    """People playing a 1-v-1 at a human pace, noting when each confirm was answered."""
    seen: set[int] = set()
    while len(match.confirms) < plays and not stop.is_set():
        found = await wait_for(lambda: next(((u, h) for u in match.people
                                             if (h := hand_of(server, u)) and data_for(h, "card")), None), 20)
        if found is None:
            return
        user, hand = found
        card = data_for(hand, "card") or ""
        version = shown_version([card]) or 0
        if version in seen:
            await asyncio.sleep(0.05)
            continue
        await asyncio.sleep(rng.uniform(1.0, 3.0))
        try:
            confirm = await press_card(server, user, hand, card)
        except Exception:  # the message moved on meanwhile (a new hand)
            continue
        if confirm is None:
            continue
        await asyncio.sleep(rng.uniform(0.3, 0.8))
        try:
            answered = await confirmed(server, user, hand, confirm)
        except Exception:
            continue
        if answered is None:
            continue
        seen.add(version)
        match.confirms.append((answered.at, version, user))


async def hostile(front: HttpFront, server: FakeTelegram, first: Match, pest: FakeUser,
                  rng: random.Random) -> tuple[float, float]:
    """The abuse, 8 s into play, and the ``/help`` flood 10 s later; returns when the flood
    began and ended."""
    await asyncio.sleep(8.0)
    alice, badr = first.people
    for user in (alice, badr):
        hand = hand_of(server, user)
        if hand is None:
            continue
        own = server.user_forwards(user, hand)
        theirs = server.user_forwards(user, hand, server.private_chat(pest))
        for copy, presser in ((own, user), (theirs, pest)):
            for data in buttons_with(copy, "card")[:2]:
                forge(server, presser, copy, data)
        for data in GARBAGE:
            forge(server, user, hand, data)
    for payload in odd_updates(server, alice, first.group):
        server.queue_update(server.new_update(payload).data)
    hand = hand_of(server, alice) or hand_of(server, badr)
    if hand is not None:
        owner = alice if hand.chat is server.private_chat(alice) else badr
        card = data_for(hand, "card")
        if card:
            for _ in range(30):
                forge(server, owner, hand, card)
                await asyncio.sleep(1 / 30)
    await asyncio.sleep(10.0)  # the flood comes apart from the presses, to be measured alone
    began = time.perf_counter()
    for _ in range(30):
        front.send(pest, first.group, "/help")
        await asyncio.sleep(10 / 30)
    return began, time.perf_counter()


async def run(lang: str, database: str | None, plays: int, keep: Path | None = None) -> None:
    server = FakeTelegram()
    front = HttpFront(server)
    url = await front.start()
    rng = random.Random(5)
    names = [("Amr", "Badr"), ("Dina", "Emad")] if lang == "ar" else [("Alice", "Badr"), ("Dana", "Emil")]
    matches = []
    for n, pair in enumerate(names):
        people = [server.add_user(name, language_code=lang) for name in pair]
        for person in people:
            server.private_chat(person)
        matches.append(Match(server.add_group(f"Cafe {n}", people), people))
    pest = server.add_user("Pest", language_code=lang)
    server.private_chat(pest)
    server.join(pest, matches[0].group)
    with tempfile.TemporaryDirectory() as folder:
        async with new_database(database, Path(folder)) as where:
            bot = Process(url, server.token, Path(folder) / "basra.sqlite3", BASRA_DATABASE=where,
                          BASRA_LANGUAGE=lang, BASRA_LOG_LEVEL="INFO", BASRA_COMPUTER_PROCESSES="0")
            try:
                if not await wait_for(lambda: server.api_calls, 30):
                    raise SystemExit(f"the bot did not come up: {bot.stderr()[-2000:]}")
                for match in matches:
                    one, two = match.people
                    front.send(one, match.group, "/newgame")
                    lobby = await wait_for(lambda m=match: next(
                        (x for x in server.messages(m.group, bot_only=True) if data_for(x, "join")), None),
                        30)
                    front.press(two, lobby, data_for(lobby, "join") or "")
                    await wait_for(lambda x=lobby: data_for(x, "start"), 30)
                    front.press(one, lobby, data_for(lobby, "start") or "")
                await wait_for(lambda: all(hand_of(server, u) for m in matches for u in m.people[:1])
                               or all(any(hand_of(server, u) for u in m.people) for m in matches), 30)
                stop = asyncio.Event()
                pest_task = asyncio.ensure_future(hostile(front, server, matches[0], pest, rng))
                await asyncio.gather(*(play(front, server, m, plays, rng, stop) for m in matches))
                began, ended = await pest_task
                # Someone resigns right after a play, as the other's turn is drawn.
                for match in matches:
                    found = await wait_for(lambda m=match: next(
                        ((u, h) for u in m.people if (h := hand_of(server, u)) and data_for(h, "card")),
                        None), 10)
                    if found is None:  # no turn drawn yet: someone resigns all the same
                        front.send(match.people[0], match.group, "/resign")
                        continue
                    user, hand = found
                    confirm = await press_card(server, user, hand, data_for(hand, "card") or "")
                    if confirm:
                        server.queue_update(server.user_presses(user, hand, confirm))
                    front.send(user, match.group, "/resign")
                await asyncio.sleep(8.0)  # the last writes go out
            finally:
                code, log = await bot.stop()
                if keep is not None:
                    keep.write_text(log)
    await front.stop()
    report(server, matches, log, code, began, ended)


def report(
    server: FakeTelegram, matches: list[Match], log: str, code: int, began: float, ended: float
) -> None:
    refused = server.flood.refused if server.flood is not None else {}
    print(f"429s: {server.too_many_requests()}" + (f" ({refused})" if refused else ""))
    print(f"tracebacks in the bot's log: {log.count('Traceback')}; the bot exited with {code}")
    if "Traceback" in log:
        first = log.index("Traceback")
        print("  the first:\n    " + "\n    ".join(log[max(0, first - 300):first + 2500].splitlines()))
    live = [
        (u, x) for m in matches for u in m.people
        for x in server.messages(server.private_chat(u), bot_only=True)
        if data_for(x, "card") or data_for(x, "play")
    ]
    over = sum(1 for m in matches
               if any(data_for(x, "rematch") for x in server.messages(m.group, bot_only=True)))
    print(f"matches whose end the group shows (a Rematch button): {over} of {len(matches)}")
    print(f"messages still showing card or confirm buttons after the matches ended: {len(live)}")
    for user, message in live:
        print(f"  {user.first_name}'s chat, message {message.message_id}: "
              + message.current.text.replace("\n", " | ")[:160])
    hands = set()  # each hand as its card buttons showed it, three cards or more
    for m in matches:
        for u in m.people:
            for x in server.messages(server.private_chat(u), bot_only=True):
                for v in x.versions:
                    cards = [b.text for row in v.buttons for b in row
                             if "card" in (b.callback_data or "") and CARD_LABEL.fullmatch(b.text.strip())]
                    if len(cards) >= 3:
                        hands.add(" ".join(c.strip() for c in cards))
    shown = [v.text for m in matches for x in server.messages(m.group, bot_only=True) for v in x.versions]
    leaked = sum(1 for text in shown for hand in hands if hand in text)
    print(f"group message versions showing a hand's cards in its order: {leaked}")
    unanswered = sum(1 for q in server.callback_queries.values() if q.answer is None)
    print(f"presses never answered: {unanswered} of {len(server.callback_queries)}")
    for n, match in enumerate(matches):
        parts: dict[str, list[float]] = {"before": [], "during": [], "after": []}
        for at, lag in timed_group_lags(server, match):
            parts["before" if at < began else "during" if at <= ended + 10.0 else "after"].append(lag)
        print(f"group {n + 1}{' (the /help flood)' if n == 0 else ''}: lag p99 " + "; ".join(
            f"{part} {percentile(lags, 0.99):.2f} s ({len(lags)})" if lags else f"{part} -"
            for part, lags in parts.items()))
    helps = [x.versions[0].at - began for x in server.messages(matches[0].group, bot_only=True)
             if "/newgame" in x.current.text]
    print(f"/help answered in the flooded group: {len(helps)} of 30"
          + (f", the first {helps[0]:.1f} s after the flood began" if helps else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=("en", "ar"), default="en")
    parser.add_argument("--plays", type=int, default=24, help="confirms a match before the resignations")
    parser.add_argument("--database", help="a PostgreSQL URL (a new schema is made in it)")
    parser.add_argument("--log", type=Path, help="keep the bot's log in this file")
    args = parser.parse_args()
    asyncio.run(run(args.lang, args.database, args.plays, args.log))


if __name__ == "__main__":
    main()
