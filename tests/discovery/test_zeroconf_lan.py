"""Real zeroconf on a simulated LAN of network namespaces (needs root; skips otherwise).

Each agent runs ``ns_agent.py`` inside one namespace with zeroconf restricted to that namespace's
address, so no multicast ever reaches a real interface. Times come from ``time.monotonic()``,
which every namespace on the machine shares.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest
from netlab import LabHost, LabProcess, NetLab

from lanomino.discovery.zeroconf_adapter import TableAnnouncer, TableBrowser

pytestmark = [pytest.mark.netns, pytest.mark.timeout(60)]

AGENT = Path(__file__).with_name("ns_agent.py")
APPEAR_LIMIT_S = 1.5
FRESH_BROWSE_LIMIT_S = 0.5


def is_event(kind: str, peer_id: str) -> Any:
    return lambda line: line.get("event") == kind and line.get("host") == peer_id


def is_done(op: str) -> Any:
    return lambda line: line.get("event") == "done" and line.get("op") == op


def start(lab: NetLab, mode: str, *hosts: LabHost) -> list[LabProcess]:
    """Start agents on the given hosts (in parallel) and wait until each is ready."""
    agents = [lab.spawn_python(host, AGENT, mode, host.ip) for host in hosts]
    for agent in agents:
        agent.expect(lambda line: line.get("event") == "ready", timeout_s=15)
    return agents


@pytest.fixture(scope="module")
def browser(lan: NetLab) -> LabProcess:
    """A browser running on host 1 for the whole module."""
    return start(lan, "browse", lan.hosts[1])[0]


def register(agent: LabProcess, name: str, port: int = 5555) -> tuple[str, float]:
    peer_id = secrets.token_hex(8)
    agent.send({"op": "register", "name": name, "peer_id": peer_id, "port": port})
    return peer_id, agent.expect(is_done("register"), timeout_s=5)["t0"]


def test_new_table_appears_in_a_running_browser_within_limit(
    lan: NetLab, browser: LabProcess
) -> None:
    (host,) = start(lan, "announce", lan.hosts[0])
    peer_id, t0 = register(host, "Kitchen", port=40123)
    seen = browser.expect(is_event("added", peer_id), timeout_s=5)
    assert seen["t"] - t0 < APPEAR_LIMIT_S
    assert seen["name"] == "Kitchen"
    assert seen["addresses"] == [lan.hosts[0].ip]
    assert seen["port"] == 40123
    assert seen["service"] == f"Kitchen [{peer_id[:8]}]._lanomino._tcp.local."


def test_two_tables_with_the_same_name_both_stay_visible(lan: NetLab, browser: LabProcess) -> None:
    first, second = start(lan, "announce", lan.hosts[0], lan.hosts[2])
    id1, _ = register(first, "Porch")
    id2, _ = register(second, "Porch")
    seen1 = browser.expect(is_event("added", id1), timeout_s=5)
    seen2 = browser.expect(is_event("added", id2), timeout_s=5)
    assert seen1["service"] != seen2["service"]
    assert {seen1["addresses"][0], seen2["addresses"][0]} == {lan.hosts[0].ip, lan.hosts[2].ip}
    # Neither went away when the other arrived.
    fresh = start(lan, "browse", lan.hosts[1])[0]
    fresh.expect(is_event("added", id1), timeout_s=FRESH_BROWSE_LIMIT_S + 1)
    fresh.expect(is_event("added", id2), timeout_s=FRESH_BROWSE_LIMIT_S + 1)


def test_fresh_browse_lists_existing_tables_well_under_a_second(lan: NetLab) -> None:
    # Host 2 both serves a table and browses: two mDNS stacks on one machine.
    near, far = start(lan, "announce", lan.hosts[2], lan.hosts[0])
    id_near, _ = register(near, "Den")
    id_far, _ = register(far, "Attic")
    for host in (lan.hosts[2], lan.hosts[1]):
        fresh = lan.spawn_python(host, AGENT, "browse", host.ip)
        ready = fresh.expect(lambda line: line.get("event") == "ready", timeout_s=15)["t"]
        a = fresh.expect(is_event("added", id_near), timeout_s=3)
        b = fresh.expect(is_event("added", id_far), timeout_s=3)
        fresh.kill()
        assert max(a["t"], b["t"]) - ready < FRESH_BROWSE_LIMIT_S


def test_seat_change_is_seen_as_an_update(lan: NetLab, browser: LabProcess) -> None:
    (host,) = start(lan, "announce", lan.hosts[2])
    peer_id, _ = register(host, "Garden")
    browser.expect(is_event("added", peer_id), timeout_s=5)
    host.send({"op": "update", "seats_taken": 3})
    t0 = host.expect(is_done("update"), timeout_s=5)["t0"]
    seen = browser.expect(is_event("updated", peer_id), timeout_s=5)
    assert seen["seats"] == "3/4"
    assert seen["t"] - t0 < APPEAR_LIMIT_S


def test_closed_table_is_seen_removed(lan: NetLab, browser: LabProcess) -> None:
    (host,) = start(lan, "announce", lan.hosts[0])
    peer_id, _ = register(host, "Cellar")
    browser.expect(is_event("added", peer_id), timeout_s=5)
    host.send({"op": "unregister"})
    t0 = host.expect(is_done("unregister"), timeout_s=5)["t0"]
    seen = browser.expect(is_event("removed", peer_id), timeout_s=5)
    assert seen["t"] - t0 < APPEAR_LIMIT_S


def test_zeroconf_is_never_created_on_default_interfaces() -> None:
    for bad in ([], (), "10.0.0.1", ["not-an-ip"]):
        with pytest.raises(ValueError):
            TableBrowser(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            TableAnnouncer(bad)  # type: ignore[arg-type]
