"""A discovery agent run inside a test namespace: ``ns_agent.py browse|announce IP``.

It speaks JSON lines. ``browse`` prints one line per table event with ``time.monotonic()`` (one
clock for every namespace on the machine). ``announce`` reads commands from stdin:
``{"op": "register", "name": ..., "peer_id": ..., "port": ...}``, ``{"op": "update",
"seats_taken": N}``, ``{"op": "unregister"}``, ``{"op": "quit"}``, and acknowledges each with the
times before and after the call. Zeroconf is only ever created with ``interfaces=[IP]``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
import time
from typing import Any

from lanomino.discovery.announce import TableAnnouncement
from lanomino.discovery.zeroconf_adapter import TableAnnouncer, TableBrowser

HOST_KEY = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"


def emit(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


async def browse(ip: str) -> None:
    async with TableBrowser([ip]) as browser:
        emit(event="ready", t=time.monotonic())
        async for event in browser.events():
            a = event.table.announcement
            emit(
                event=event.kind,
                t=time.monotonic(),
                service=event.table.service_name,
                name=a.name,
                seats=f"{a.seats_taken}/{a.seats_total}",
                host=a.host_peer_id,
                addresses=list(event.table.addresses),
                port=event.table.port,
            )


async def stdin_lines() -> asyncio.StreamReader:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    return reader


async def announce(ip: str) -> None:
    reader = await stdin_lines()
    async with TableAnnouncer([ip]) as announcer:
        emit(event="ready", t=time.monotonic())
        while line := await reader.readline():
            cmd = json.loads(line)
            t0 = time.monotonic()
            if cmd["op"] == "register":
                table = TableAnnouncement(
                    name=cmd["name"],
                    rules="classic",
                    seats_taken=1,
                    seats_total=4,
                    host_peer_id=cmd["peer_id"],
                    term=0,
                    has_passphrase=False,
                    host_key=HOST_KEY,
                )
                await announcer.register(table, cmd["port"])
            elif cmd["op"] == "update":
                current = announcer.announcement
                assert current is not None
                table = dataclasses.replace(current, seats_taken=cmd["seats_taken"])
                await announcer.update(table)
            elif cmd["op"] == "unregister":
                await announcer.unregister()
            elif cmd["op"] == "quit":
                break
            emit(event="done", op=cmd["op"], t0=t0, t1=time.monotonic())


def main() -> None:
    mode, ip = sys.argv[1], sys.argv[2]
    try:
        asyncio.run(browse(ip) if mode == "browse" else announce(ip))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
