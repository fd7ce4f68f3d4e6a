"""The namespace harness itself: it builds a LAN and leaves nothing behind, even on failure."""

from __future__ import annotations

import os
import subprocess

import pytest
from netlab import NetLab, live_namespaces, require_netns

pytestmark = [pytest.mark.netns, pytest.mark.timeout(30)]


def test_lab_builds_hosts_with_private_addresses_and_multicast_routes() -> None:
    require_netns()
    with NetLab(hosts=2) as lab:
        h0, h1 = lab.hosts
        assert h0.ip != h1.ip
        addrs = lab.run(h0, ["ip", "-4", "-o", "addr"]).stdout
        assert f"{h0.ip}/24" in addrs and "127.0.0.1" in addrs
        routes = lab.run(h0, ["ip", "route"]).stdout
        assert "224.0.0.0/4 dev eth0" in routes
        # The hosts reach each other over the bridge (TCP from h1 to a listener on h0).
        server = lab.spawn(h0, ["python3", "-c", LISTEN.format(ip=h0.ip)])
        server.expect(lambda line: line.get("listening") is True, timeout_s=10)
        client = lab.run(h1, ["python3", "-c", CONNECT.format(ip=h0.ip)])
        assert client.returncode == 0, client.stderr
        server.expect(lambda line: line.get("accepted") == h1.ip, timeout_s=5)
        # The lab's addresses do not exist in the namespace the tests run in.
        root_addrs = subprocess.run(["ip", "-4", "-o", "addr"], capture_output=True, text=True)
        assert h0.ip not in root_addrs.stdout


def test_lab_kills_processes_and_deletes_namespaces_on_exit() -> None:
    require_netns()
    with NetLab(hosts=2) as lab:
        sleeper = lab.spawn(lab.hosts[1], ["sleep", "600"])
        names = lab.namespaces
        assert set(names) <= set(live_namespaces())
        assert len(names) == 3  # the bridge and two hosts
    assert sleeper.popen.poll() is not None
    assert not set(names) & set(live_namespaces())


def test_lab_tears_down_when_setup_fails_half_way() -> None:
    require_netns()
    lab = NetLab(hosts=2, subnet="10.77.999")  # "10.77.999.1" is refused by ip addr add
    with pytest.raises(subprocess.CalledProcessError):
        with lab:
            pass
    assert not [ns for ns in live_namespaces() if ns.startswith(lab.prefix)]


def test_namespace_names_are_unique_per_run_and_lab() -> None:
    first, second = NetLab(hosts=1), NetLab(hosts=1)
    assert first.prefix != second.prefix
    assert str(os.getpid()) in first.prefix


LISTEN = """
import json, socket
s = socket.socket(); s.bind(("{ip}", 7001)); s.listen()
print(json.dumps({{"listening": True}}), flush=True)
conn, addr = s.accept()
print(json.dumps({{"accepted": addr[0]}}), flush=True)
"""
CONNECT = """
import socket
socket.create_connection(("{ip}", 7001), timeout=5).close()
"""


def test_without_root_the_lab_explains_why_it_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    import netlab

    monkeypatch.setattr(netlab, "_availability", False)  # forget the cached probe
    monkeypatch.setattr(netlab.os, "geteuid", lambda: 1000)
    reason = netlab.unavailable_reason()
    assert reason is not None and "root" in reason
    with pytest.raises(pytest.skip.Exception, match="root"):
        require_netns()
