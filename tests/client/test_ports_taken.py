"""A port asked for that is taken is said in words (issue 30 item 17): a table on port P also
uses P + 1 for its key service, so ``host --port P+1`` beside it, or ``host --port P`` where P + 1
is taken, is refused saying which port and why, and nothing is opened. Real ``lanomino host``
processes on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOST = [sys.executable, "-m", "lanomino", "host", "--headless", "--json", "--bind", "127.0.0.1",
        "--no-announce"]


def _host(port: int, data: Path) -> subprocess.CompletedProcess[str]:
    """A second table asked for ``port``: it must refuse at once (a table that opened would wait
    for players until the timeout)."""
    return subprocess.run([*HOST, "--port", str(port), "--data-dir", str(data)], cwd=ROOT,
                          capture_output=True, text=True, timeout=30)


def test_the_port_of_another_tables_key_service_is_refused_in_words(tmp_path: Path) -> None:
    first = subprocess.Popen([*HOST, "--data-dir", str(tmp_path / "first")], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert first.stdout is not None
        port = int(json.loads(first.stdout.readline())["port"])
        beside = _host(port + 1, tmp_path / "second")
        assert beside.returncode == 2, beside.stdout
        said = beside.stderr
        assert f"port {port + 1} is in use" in said and "key service" in said, said
        assert "--port" in said and "Errno" not in said and "tcp://" not in said, said
        assert "listening" not in beside.stdout
        same = _host(port, tmp_path / "second")
        assert same.returncode == 2 and f"port {port} is in use" in same.stderr, same.stderr
    finally:
        first.kill()
        first.wait(timeout=10)


def test_a_port_whose_next_one_is_taken_is_refused_before_the_table_opens(tmp_path: Path) -> None:
    with socket.socket() as taken:
        for _ in range(20):  # a taken port whose port before it is free
            taken.bind(("127.0.0.1", 0))
            port = int(taken.getsockname()[1]) - 1
            with socket.socket() as probe:
                try:
                    probe.bind(("127.0.0.1", port))
                    break
                except OSError:
                    taken.close()
                    taken = socket.socket()
        taken.listen()
        done = _host(port, tmp_path / "host")
    assert done.returncode == 2, done.stdout
    assert f"port {port + 1} is in use" in done.stderr and f"on port {port}" in done.stderr
    assert "HOST:PORT/CODE" in done.stderr and "listening" not in done.stdout


def test_a_port_out_of_range_is_refused_in_words(tmp_path: Path) -> None:
    """65535 has no next port for the key service, and 99999 is no port at all: each is refused
    with a sentence, not a traceback."""
    for port in (65535, 99999):
        done = _host(port, tmp_path / str(port))
        assert done.returncode == 2, done.stderr
        assert f"--port {port} is not a port a table can use" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and "OverflowError" not in done.stderr


def test_an_address_that_is_not_this_machines_is_refused_in_words(tmp_path: Path) -> None:
    """--bind to an address this machine does not have said zmq's 'cannot listen on
    tcp://198.51.100.77:*: Cannot assign requested address' (a new evening's bad input)."""
    done = subprocess.run([*HOST[:-3], "--bind", "198.51.100.77", "--no-announce", "--data-dir",
                           str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2, done.stdout
    said = done.stderr
    assert "198.51.100.77 is not an address of this machine" in said, said
    assert "127.0.0.1" in said and "tcp://" not in said and "listening" not in done.stdout, said
