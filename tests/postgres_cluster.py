"""Run a command beside a throwaway PostgreSQL: ``python -m tests.postgres_cluster -- CMD``.

``make test`` runs pytest through this, so the PostgreSQL tests have a real server without any
setup. The command gets ``SAHRA_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:PORT/postgres``
and the runner exits with the command's code. Along the way:

* ``SAHRA_TEST_POSTGRES_URL`` already set: the command runs against that server, nothing else.
* No PostgreSQL server binaries (``initdb``, ``pg_ctl`` and ``postgres`` on ``PATH``, else the
  newest ``/usr/lib/postgresql/*/bin``, where Debian puts them): one line on stderr and the
  command runs without the variable, so the PostgreSQL tests skip.
* Otherwise ``initdb`` makes a cluster in a new temporary directory (trust authentication,
  superuser ``postgres``, UTF8, C locale; ``fsync`` and ``synchronous_commit`` stay on, as the
  durability tests need), the server listens on a free port of 127.0.0.1 only (its Unix socket
  in the temporary directory) and, once the command has ended, is stopped (``pg_ctl stop -m fast``)
  and the directory deleted, however the command ended. SIGINT, SIGTERM and SIGHUP go on to the
  command (a Ctrl-C typed at the terminal already reaches it, so that one is not sent twice) and
  the runner cleans up after it exits; during startup they abort the startup, cleanly.
* ``initdb`` and ``postgres`` refuse to run as root: as root the cluster belongs to, and runs
  as, the ``postgres`` system user (Debian's ``postgresql`` package creates it). A SIGKILLed
  runner cannot clean up: its server keeps running (``pg_ctl stop -D /tmp/sahra-pg-*/data``).

Standard library only: it runs before anything is known about the environment.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

URL_VAR = "SAHRA_TEST_POSTGRES_URL"
SERVER_USER = "postgres"  # the system user the cluster runs as when we are root
SUPERUSER = "postgres"  # the database superuser the URL names
HOST = "127.0.0.1"
DEBIAN_ROOT = Path("/usr/lib/postgresql")
HANDLED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
START_TIMEOUT = 60  # seconds pg_ctl waits for the server to accept connections
STOP_TIMEOUT = 30
START_ATTEMPTS = 3  # a new port each time, should another process take ours first
LOG_TAIL = 40  # lines of the server log shown when it fails to start

_PREFIX = "postgres_cluster:"


@dataclass(frozen=True)
class Binaries:
    """The PostgreSQL server programs this runner needs."""

    initdb: str
    pg_ctl: str
    postgres: str


def find_binaries() -> Binaries | None:
    """``initdb``, ``pg_ctl`` and ``postgres`` from ``PATH``, else the newest Debian install."""
    initdb = shutil.which("initdb")
    pg_ctl = shutil.which("pg_ctl")
    postgres = shutil.which("postgres")
    if initdb and pg_ctl and postgres:
        # Prefer the three programs side by side where initdb really lives (consistent versions).
        home = Path(os.path.realpath(initdb)).parent
        together = _binaries_in(home)
        return together or Binaries(initdb, pg_ctl, postgres)
    versions: list[tuple[tuple[int, ...], Binaries]] = []
    try:
        candidates = list(DEBIAN_ROOT.iterdir())
    except OSError:
        candidates = []
    for candidate in candidates:
        found = _binaries_in(candidate / "bin")
        number = re.fullmatch(r"\d+(?:\.\d+)*", candidate.name)
        if found and number:
            versions.append((tuple(int(part) for part in candidate.name.split(".")), found))
    return max(versions)[1] if versions else None


def _binaries_in(directory: Path) -> Binaries | None:
    paths = [directory / name for name in ("initdb", "pg_ctl", "postgres")]
    if all(path.is_file() and os.access(path, os.X_OK) for path in paths):
        return Binaries(*(str(path) for path in paths))
    return None


@dataclass(frozen=True)
class Account:
    """Who runs the server programs: ``None`` fields mean the current user."""

    uid: int | None = None
    gid: int | None = None

    @classmethod
    def for_server(cls) -> Account:
        """The current user, or the ``postgres`` system user when we are root."""
        if os.geteuid() != 0:
            return cls()
        try:
            entry = pwd.getpwnam(SERVER_USER)
        except KeyError:
            raise StartupError(
                f"running as root, and PostgreSQL refuses to: the {SERVER_USER!r} system user "
                "it would run as does not exist (Debian's postgresql package creates it)"
            ) from None
        return cls(entry.pw_uid, entry.pw_gid)

    def run(self, args: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[str]:
        """Run a server program as this account, its output captured."""
        return subprocess.run(
            list(args),
            cwd=cwd,
            env=_server_environment(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            check=False,
            user=self.uid,
            group=self.gid,
            extra_groups=None if self.uid is None else [],
        )

    def own(self, path: Path) -> None:
        if self.uid is not None and self.gid is not None:
            os.chown(path, self.uid, self.gid)


def _server_environment() -> dict[str, str]:
    """Our environment without the libpq ``PG*`` variables (PGDATA, PGPORT, PGOPTIONS...)."""
    return {key: value for key, value in os.environ.items() if not key.startswith("PG")}


class StartupError(Exception):
    """The cluster could not be created or started; the message says why."""


class Interrupted(BaseException):
    """A signal arrived while the cluster was starting."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class SignalRelay:
    """SIGINT, SIGTERM and SIGHUP: abort the startup, go on to the command, or wait for cleanup."""

    def __init__(self) -> None:
        self.received: list[int] = []
        self.child: subprocess.Popen[bytes] | None = None
        self.raising = True
        self._previous: dict[int, Callable[[int, FrameType | None], Any] | int | None] = {}

    def install(self) -> None:
        for signum in HANDLED_SIGNALS:
            self._previous[signum] = signal.signal(signum, self._handle)

    def restore(self) -> None:
        for signum, handler in self._previous.items():
            if handler is not None:  # None: not installed from Python; nothing to put back
                signal.signal(signum, handler)

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        self.received.append(signum)
        child = self.child
        if child is not None and child.returncode is None:
            if signum != signal.SIGINT or not _terminal_reaches(child.pid):
                with contextlib.suppress(OSError):
                    child.send_signal(signum)
        elif self.raising:
            self.raising = False  # one Interrupted is enough: the cleanup must run undisturbed
            raise Interrupted(signum)


def _terminal_reaches(pid: int) -> bool:
    """Whether a Ctrl-C at our controlling terminal also reached ``pid`` (its foreground group)."""
    try:
        if os.getpgid(pid) != os.getpgrp():
            return False
        terminal = os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY)
    except OSError:
        return False
    try:
        return os.tcgetpgrp(terminal) == os.getpgrp()
    except OSError:
        return False
    finally:
        os.close(terminal)


class Cluster:
    """A PostgreSQL cluster in a temporary directory, and its server."""

    def __init__(self, binaries: Binaries, account: Account) -> None:
        self.binaries = binaries
        self.account = account
        self.root = Path(tempfile.mkdtemp(prefix="sahra-pg-", dir=_temporary_base(account)))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = 0
        self.version = ""
        self.started = False  # pg_ctl start has run (perhaps interrupted): stop() has work to do

    @property
    def url(self) -> str:
        return f"postgresql://{SUPERUSER}@{HOST}:{self.port}/postgres"

    def create(self) -> None:
        self.account.own(self.root)
        self.version = self._version()
        args = [
            self.binaries.initdb,
            "--pgdata",
            str(self.data),
            "--username",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",  # byte order and ASCII-only case mapping everywhere, as with SQLite
        ]
        if _major(self.version) >= 14:
            args.append("--no-instructions")
        done = self.account.run(args, cwd=self.root)
        if done.returncode != 0:
            raise StartupError(f"initdb failed ({done.returncode}):\n{_output(done)}")

    def start(self) -> None:
        for attempt in range(1, START_ATTEMPTS + 1):
            self.port = _free_port()
            settings = {
                "listen_addresses": HOST,
                "port": str(self.port),
                "unix_socket_directories": str(self.root),
                "max_connections": "200",
                "fsync": "on",  # the default, pinned: the durability tests rely on it
                "synchronous_commit": "on",
            }
            options = " ".join(
                f"-c {shlex.quote(f'{name}={value}')}" for name, value in settings.items()
            )
            args = [self.binaries.pg_ctl, "start", "--wait", f"--timeout={START_TIMEOUT}"]
            args += ["--pgdata", str(self.data), "--log", str(self.log), "-o", options]
            self.started = True
            done = self.account.run(args, cwd=self.root)
            if done.returncode == 0:
                return
            log = self._log_tail()
            if attempt < START_ATTEMPTS and "already in use" in log:
                self.stop()  # in case it half started; then try another port
                continue
            raise StartupError(
                f"the server did not start ({done.returncode}):\n{_output(done)}"
                f"--- the end of {self.log}:\n{log}"
            )

    def stop(self) -> None:
        """Stop the server if it runs: fast (clients disconnected), else immediate, else kill."""
        if not self.started:
            return  # a postmaster.pid now is initdb's own single-user postgres, not ours to stop
        for mode in ("fast", "immediate"):
            if not self._running():
                return
            args = [self.binaries.pg_ctl, "stop", "--pgdata", str(self.data)]
            args += ["--mode", mode, "--wait", f"--timeout={STOP_TIMEOUT}"]
            done = self.account.run(args, cwd=self.root)
            if done.returncode != 0 and self._running():
                _say(f"pg_ctl stop -m {mode} failed ({done.returncode}): {_output(done)}")
        pid = self._postmaster_pid()
        if pid is not None and pid > 0:
            _say(f"killing the server (pid {pid})")
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)

    def remove(self) -> None:
        for _ in range(10):  # an interrupted initdb's postgres may still be writing for a moment
            shutil.rmtree(self.root, ignore_errors=True)
            if not self.root.exists():
                return
            time.sleep(0.2)
        _say(f"could not delete {self.root}")

    def _running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def _postmaster_pid(self) -> int | None:
        try:
            first = (self.data / "postmaster.pid").read_text().split("\n", 1)[0]
            return int(first)
        except (OSError, ValueError):
            return None

    def _version(self) -> str:
        done = self.account.run([self.binaries.postgres, "--version"], cwd=self.root)
        found = re.search(r"\d+(?:\.\d+)*", done.stdout)
        if done.returncode != 0 or not found:
            raise StartupError(f"{self.binaries.postgres} --version failed:\n{_output(done)}")
        return found.group()

    def _log_tail(self) -> str:
        try:
            lines = self.log.read_text(errors="replace").splitlines()
        except OSError as error:
            return f"(no log: {error})\n"
        return "".join(f"{line}\n" for line in lines[-LOG_TAIL:])


def _temporary_base(account: Account) -> str:
    """Where the cluster's directory goes: the usual place, unless the server user cannot reach it.

    As root the server runs as ``postgres``, which needs to pass through every directory above
    (a ``TMPDIR`` under a private home, say); then /tmp.
    """
    base = tempfile.gettempdir()
    if account.uid is None:
        return base
    for directory in (Path(base), *Path(base).parents):
        try:
            if not directory.stat().st_mode & stat.S_IXOTH:
                return "/tmp"
        except OSError:
            return "/tmp"
    return base


def _major(version: str) -> int:
    return int(version.split(".", 1)[0])


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def _output(done: subprocess.CompletedProcess[str]) -> str:
    text = (done.stdout or "") + (done.stderr or "")
    return text if text.endswith("\n") or not text else text + "\n"


def _say(message: str) -> None:
    print(f"{_PREFIX} {message}", file=sys.stderr, flush=True)


def _exec(command: Sequence[str]) -> int:
    """Become the command (its exit code is then ours); 127 if it cannot be run."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execvp(command[0], list(command))
    except OSError as error:
        _say(f"cannot run {command[0]}: {error}")
    return 127


def _exit_code(returncode: int) -> int:
    """A Popen return code as a shell reports it (killed by signal N: 128 + N)."""
    return 128 - returncode if returncode < 0 else returncode


def run(command: Sequence[str]) -> int:
    """Run ``command`` with ``SAHRA_TEST_POSTGRES_URL`` set, as described above; its exit code."""
    if os.environ.get(URL_VAR):
        return _exec(command)
    binaries = find_binaries()
    if binaries is None:
        _say("PostgreSQL not found: the PostgreSQL tests will be skipped")
        return _exec(command)

    relay = SignalRelay()
    relay.install()
    cluster: Cluster | None = None
    try:
        began = time.monotonic()
        try:
            cluster = Cluster(binaries, Account.for_server())
            cluster.create()
            cluster.start()
        except StartupError as error:
            _say(f"cannot start PostgreSQL: {error}")
            return 1
        _say(
            f"PostgreSQL {cluster.version} ready on {HOST}:{cluster.port} "
            f"in {time.monotonic() - began:.1f} s ({cluster.root})"
        )
        environment = {**os.environ, URL_VAR: cluster.url}
        relay.raising = False  # from here on a signal is passed on (noted until Popen returns)
        noted = len(relay.received)
        try:
            child = subprocess.Popen(list(command), env=environment)
        except OSError as error:
            _say(f"cannot run {command[0]}: {error}")
            return 127
        relay.child = child
        for signum in relay.received[noted:]:
            child.send_signal(signum)  # arrived while the command was being started
        return _exit_code(child.wait())
    except Interrupted as interrupted:
        _say(f"interrupted ({signal.Signals(interrupted.signum).name}) while starting PostgreSQL")
        return 128 + interrupted.signum
    finally:
        relay.raising = False  # from here on signals are only noted: the cleanup must finish
        if cluster is not None:
            cluster.stop()
            cluster.remove()
        relay.restore()


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["--"]:
        arguments = arguments[1:]
    if not arguments or arguments[0] in ("-h", "--help"):
        print(f"usage: python -m tests.postgres_cluster -- CMD [ARGS...]\n\n{__doc__ or ''}")
        return 0 if arguments else 2
    return run(arguments)


if __name__ == "__main__":
    sys.exit(main())
