"""`make run` makes every credential (files mode 0600 in a 0700 directory), starts NATS and Redis with
them, and every service with its own: strangers are shut out, the lobby still serves players, and
`starbase admin` works as its own user with the command `make run` prints (and not without it)."""
from __future__ import annotations

import json
import stat
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from redis.asyncio import Redis

from starbase_core.provision import provision
from tests.security.conftest import cannot_connect
from tests.support.make_run import make_run

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


def modes(directory: Path) -> dict[str, int]:
    return {str(path.relative_to(directory)): stat.S_IMODE(path.stat().st_mode) for path in directory.rglob("*")}


def test_provisioned_files_are_private_and_kept_across_runs(tmp_path):
    creds = provision(tmp_path / "creds", tls_hosts=["127.0.0.1"])
    found = modes(tmp_path / "creds")
    assert stat.S_IMODE((tmp_path / "creds").stat().st_mode) == 0o700
    secret_files = {name: mode for name, mode in found.items() if not name.endswith(".crt")}
    assert secret_files and all(mode in (0o600, 0o700) for mode in secret_files.values()), secret_files
    before = {name: (tmp_path / "creds" / name).read_bytes() for name in found if (tmp_path / "creds" / name).is_file()}
    provision(tmp_path / "creds", tls_hosts=["127.0.0.1"])
    after = {name: (tmp_path / "creds" / name).read_bytes() for name in before}
    assert before == after
    assert creds.env("lobby")["LOBBY_SECRET"] == creds.lobby_secret


async def test_make_run_starts_everything_with_its_own_credentials_and_shuts_strangers_out(tmp_path):
    run_dir = tmp_path / "run"
    with make_run(run_dir) as run:
        ports, env, printed = run.ports, run.env, run.printed
        assert "Ctrl-C stops everything" in "".join(printed), "".join(printed)
        credentials = run_dir / "credentials"
        assert stat.S_IMODE(credentials.stat().st_mode) == 0o700
        files = [p for p in credentials.rglob("*") if p.is_file()]
        assert len(files) >= 10 and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in files)

        assert await cannot_connect(f"nats://127.0.0.1:{ports['NATS_PORT']}")
        anonymous = Redis.from_url(f"redis://127.0.0.1:{ports['REDIS_PORT']}/0")
        try:
            with pytest.raises(Exception, match="(?i)auth"):
                await anonymous.get("{scoring}:position")
        finally:
            await anonymous.aclose()

        request = urllib.request.Request(f"http://127.0.0.1:{ports['LOBBY_PORT']}/players", method="POST",
                                         data=json.dumps({"name": "ann", "password": "ann's long password"}).encode(),
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as reply:
            assert json.load(reply)["access_token"]

        # The console, as its own NATS user, with the command `make run` printed.
        admin = next(line for line in printed if "starbase admin create-admin" in line).split()[1:]
        assert admin[0].startswith("NATS_NKEY_FILE=") and admin[0].endswith("/nats/admin.nk"), admin
        console_env = {**env, **dict(item.split("=", 1) for item in admin if "=" in item),
                       "STARBASE_ADMIN_PASSWORD": "the root's long password"}
        created = subprocess.run([sys.executable, "-m", "starbase_cli.main", "admin", "create-admin", "root"],
                                 env=console_env, capture_output=True, text=True, timeout=120)
        assert created.returncode == 0 and "admin root created" in created.stdout, created.stdout + created.stderr
        without_user = {k: v for k, v in console_env.items() if k != "NATS_NKEY_FILE"}
        refused = subprocess.run([sys.executable, "-m", "starbase_cli.main", "admin", "log"],
                                 env=without_user, capture_output=True, text=True, timeout=120)
        assert refused.returncode != 0 and "Traceback" not in refused.stderr, refused.stderr
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"http://127.0.0.1:{ports['LOBBY_PORT']}/metrics", timeout=10)
        assert missing.value.code == 404               # metrics are not on the public port
        logs = "".join(p.read_text() for p in (run_dir / "logs").glob("*.log"))
        for secret_file in files:
            assert secret_file.read_text().strip() not in logs, f"{secret_file.name} leaked into a log"
    assert run.returncode == 0, run.text + run.rest
    assert (run_dir / "nats" / "nats.log").read_text().count("Violation") == 0
