"""Starts the real reference server for the tests: scripts/start-test-server.ts on a free loopback port."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[3]
LAUNCHER = REPO_ROOT / "scripts" / "start-test-server.ts"
START_TIMEOUT_S = 60.0


@dataclass
class ReferenceServer:
    """A running server: ``url`` is its origin, ``endpoint`` the protocol's base (``url + /api/agent``)."""

    url: str
    process: subprocess.Popen[str]

    @property
    def endpoint(self) -> str:
        return f"{self.url}/api/agent"

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def stop(self) -> None:
        """Closes its stdin (the launcher stops on that), then waits; terminates it if it lingers."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            self.process.wait(timeout=15)


def start_reference_server(limits: dict[str, Any] | None = None) -> ReferenceServer:
    """Starts the demo server: in-memory storage, the scripted model at 1 ms a delta, ``limits`` as ``AGENT_LIMITS``."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not on PATH: the tests need it to start the reference server")
    env = {**os.environ, "AGENT_SCRIPTED_DELAY_MS": "1"}
    if limits is not None:
        env["AGENT_LIMITS"] = json.dumps(limits)
    process = subprocess.Popen(
        [node, "--import", "tsx", str(LAUNCHER)],
        cwd=REPO_ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    url = _read_url(process)
    return ReferenceServer(url, process)


def _read_url(process: subprocess.Popen[str]) -> str:
    """The URL of the launcher's ``listening <url>`` line; keeps draining its output afterwards."""
    found = threading.Event()
    lines: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            if not found.is_set():
                lines.append(line)
                if line.startswith("listening "):
                    found.set()

    threading.Thread(target=read, daemon=True).start()
    if not found.wait(START_TIMEOUT_S):
        process.kill()
        raise RuntimeError(f"the reference server printed no URL within {START_TIMEOUT_S} s:\n{''.join(lines)}")
    return lines[-1].split(" ", 1)[1].strip()
