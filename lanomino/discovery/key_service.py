"""The key service: a table's signed answer (``table_key``) on TCP port ``game port + 1``.

A stranger gets a tiny budget: nothing is read from the caller, each connection is one write of
under 512 bytes with a deadline, at most ``MAX_OPEN`` are served at once and ``PER_SECOND`` a
second; a connection beyond that is closed at once. The joiner's side (``fetch_table_key``) turns
every way of failing into its own sentence: nobody listening, no answer, not a lanomino table.
"""

from __future__ import annotations

import asyncio
import logging

from lanomino.discovery.table_key import MAX_ANSWER_BYTES, TableKey, parse_answer

log = logging.getLogger("lanomino.key_service")
MAX_OPEN = 8
PER_SECOND = 20.0
WRITE_DEADLINE_S = 2.0
CLOSE_S = 0.3  # the most closing waits for connections still open (a node exits within 2 s)


class KeyServiceError(Exception):
    """Why a table's key could not be fetched, in words for the person joining."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code  # refused | silent | unreachable | garbled | absent


class KeyService:
    """Serves ``answer`` (one line) to whoever connects, within the budget above."""

    def __init__(self, answer: bytes, max_open: int = MAX_OPEN,
                 per_second: float = PER_SECOND) -> None:
        self.answer, self.max_open, self.per_second = answer, max_open, per_second
        self.open = 0
        self.tokens, self.filled_at = per_second, 0.0
        self.turned_away = 0
        self.server: asyncio.Server | None = None

    async def start(self, host: str, port: int) -> None:
        """Listen on ``host:port``. Raises OSError (e.g. the port is taken)."""
        self.server = await asyncio.start_server(self._serve, host, port, limit=64)

    def _may_serve(self) -> bool:
        now = asyncio.get_running_loop().time()
        self.tokens = min(self.per_second, self.tokens + (now - self.filled_at) * self.per_second)
        self.filled_at = now
        if self.open >= self.max_open or self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self._may_serve():
            self.turned_away += 1
            writer.transport.abort()
            return
        self.open += 1
        try:
            writer.write(self.answer)
            async with asyncio.timeout(WRITE_DEADLINE_S):
                await writer.drain()
        except (OSError, TimeoutError):
            pass
        finally:
            self.open -= 1
            writer.close()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            try:  # (a client holding its connection open must not hold up a node's exit)
                async with asyncio.timeout(CLOSE_S):
                    await self.server.wait_closed()
            except TimeoutError:
                pass
            self.server = None


async def start_key_service(answer: bytes, host: str, game_port: int) -> KeyService | None:
    """The key service beside a table serving on ``game_port``, or None when its port is taken
    (then only the full ``HOST:PORT/KEY`` address reaches the table)."""
    service = KeyService(answer)
    try:
        await service.start(host, game_port + 1)
    except OSError as exc:
        log.warning("no key service on port %d (%s): joiners need the full address", game_port + 1,
                    exc.strerror or exc)
        return None
    return service


async def fetch_table_key(host: str, port: int, timeout_s: float = 3.0) -> TableKey:
    """The signed answer of the table at ``host:port``.

    Raises:
        KeyServiceError: with a message saying what went wrong.
    """
    where = f"{host}:{port}"
    try:
        async with asyncio.timeout(timeout_s):
            reader, writer = await asyncio.open_connection(host, port + 1,
                                                           limit=2 * MAX_ANSWER_BYTES)
    except ConnectionRefusedError:
        if await _game_port_open(host, port, timeout_s):
            raise KeyServiceError("absent", f"the table at {where} does not give out its key: "
                                  "join with the full address HOST:PORT/KEY from the host's "
                                  "screen") from None
        raise KeyServiceError("refused", f"nobody is listening at {where}: is the table open, "
                              "and is that the address on the host's screen?") from None
    except TimeoutError:
        raise KeyServiceError("silent", f"{where} does not answer (within {timeout_s:g} s): "
                              "a wrong address, or a firewall in the way") from None
    except OSError as exc:
        raise KeyServiceError("unreachable", f"cannot reach {where}: "
                              f"{exc.strerror or exc}") from None
    try:
        async with asyncio.timeout(timeout_s):
            line = await reader.readline()
    except TimeoutError:
        raise KeyServiceError("silent", f"{where} does not answer (within {timeout_s:g} s): "
                              "a wrong address, or a firewall in the way") from None
    except (OSError, ValueError, asyncio.LimitOverrunError):
        line = b""
    finally:
        writer.transport.abort()
    try:
        return parse_answer(line[:MAX_ANSWER_BYTES + 1], port)
    except ValueError as exc:
        raise KeyServiceError("garbled", f"{where} is not a lanomino table ({exc})") from None


async def _game_port_open(host: str, port: int, timeout_s: float) -> bool:
    try:
        async with asyncio.timeout(timeout_s):
            _, writer = await asyncio.open_connection(host, port)
    except (OSError, TimeoutError):
        return False
    writer.transport.abort()
    return True
