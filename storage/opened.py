"""What every store does as a context manager: ``async with store:`` opens and closes it."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Opened:
    """``open`` on entry, ``close`` on the way out, whatever happened inside."""

    async def open(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
