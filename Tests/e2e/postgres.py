"""A PostgreSQL server of the test's own: `initdb` in a temporary directory, `postgres` on a
free loopback port and a socket directory inside it, trust authentication. As root it runs as
the `postgres` system user (PostgreSQL refuses root), and it gets SIGINT from the kernel if
the test process dies, so no server outlives the tests."""
import glob
import os
import pathlib
import pwd
import shutil
import signal
import subprocess
import tempfile
import time

from conftest import free_port


def bin_directory() -> str | None:
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"),
                        key=lambda path: int(path.split("/")[4]) if path.split("/")[4].isdigit() else 0, reverse=True)
    return os.path.dirname(candidates[0]) if candidates else None


class PostgresServer:
    def __init__(self):
        self.bin = bin_directory()
        if self.bin is None:
            raise RuntimeError("PostgreSQL binaries not found under /usr/lib/postgresql/*/bin (make test-deps installs them)")
        self.directory = tempfile.mkdtemp(prefix="parley-e2e-pg-")
        self.credentials: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.directory, user.pw_uid, user.pw_gid)
            self.credentials = [f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups"]
        self.data = os.path.join(self.directory, "data")
        self.sockets = os.path.join(self.directory, "sockets")
        self._run("initdb", "-D", self.data, "-U", "parley", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
        self._as_user(["mkdir", self.sockets])
        self.port = free_port()
        self.log = open(os.path.join(self.directory, "server.log"), "w")
        self.process = subprocess.Popen(
            ["setpriv", *self.credentials, "--pdeathsig", "INT", "--", f"{self.bin}/postgres", "-D", self.data,
             "-h", "127.0.0.1", "-p", str(self.port), "-k", self.sockets, "-c", "fsync=off"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        try:
            while subprocess.run([f"{self.bin}/pg_isready", "-q", "-h", "127.0.0.1", "-p", str(self.port)]).returncode != 0:
                if self.process.poll() is not None or time.time() > deadline:
                    raise RuntimeError("PostgreSQL did not start:\n" + pathlib.Path(self.log.name).read_text()[-2000:])
                time.sleep(0.1)
        except BaseException:
            # Nobody holds a server that never started: stop it and its files here.
            self.process.kill()
            self.process.wait()
            self.log.close()
            shutil.rmtree(self.directory, ignore_errors=True)
            raise

    def _as_user(self, command: list[str]):
        subprocess.run(["setpriv", *self.credentials, "--", *command], check=True, capture_output=True)

    def _run(self, tool: str, *arguments: str):
        subprocess.run(["setpriv", *self.credentials, "--", f"{self.bin}/{tool}", *arguments], check=True, capture_output=True)

    def create_database(self, name: str, locale: str | None = None) -> str:
        """A new database (in `locale`, from template0, when given); returns its connection URI."""
        options = ["--locale", locale, "--template", "template0"] if locale else []
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "parley", *options, name)
        return f"postgres://parley@127.0.0.1:{self.port}/{name}"

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=30)
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)
