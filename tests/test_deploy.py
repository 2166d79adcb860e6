"""The deploy files agree with the code: every variable in .env.example is a real setting,
the image runs as a non-root user with the database on a volume, the unit stops on SIGTERM."""

from __future__ import annotations

import re
from pathlib import Path

from bot.settings import Settings

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


def test_every_example_variable_is_a_setting_and_every_setting_is_documented() -> None:
    names = set(re.findall(r"^#?(SAHRA_[A-Z_]+)=", (DEPLOY / ".env.example").read_text(), re.M))
    fields = {f"SAHRA_{name.upper()}" for name in Settings.model_fields}
    assert names <= fields
    assert fields - names <= {"SAHRA_TELEGRAM_WEBHOOK_LISTEN", "SAHRA_DISCORD_API_URL"}


def test_the_image_runs_as_a_non_root_user_with_data_on_a_volume() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^USER sahra$", dockerfile, re.M)
    assert 'VOLUME ["/data"]' in dockerfile and "SAHRA_DATABASE=/data/" in dockerfile
    assert "STOPSIGNAL SIGTERM" in dockerfile
    compose = (DEPLOY / "compose.yaml").read_text()
    assert "sahra-data:/data" in compose and "env_file: .env" in compose


def test_the_systemd_unit_stops_with_sigterm_and_restarts_on_failure() -> None:
    unit = (DEPLOY / "sahra.service").read_text()
    for line in ("KillSignal=SIGTERM", "Restart=on-failure", "ExecStart=/opt/sahra/bin/sahra run"):
        assert line in unit


def test_the_postgres_compose_runs_two_processes_on_one_durable_database() -> None:
    compose = (DEPLOY / "compose.postgres.yaml").read_text()
    assert "sahra-a: &sahra" in compose and "sahra-b: *sahra" in compose
    assert "SAHRA_DATABASE_URL: postgresql://" in compose
    assert "synchronous_commit=on" in compose and "restart: unless-stopped" in compose


def test_caddy_puts_https_in_front_of_the_web_table_in_compose() -> None:
    compose = (DEPLOY / "compose.yaml").read_text()
    caddyfile = (DEPLOY / "Caddyfile").read_text()
    assert "image: caddy:2" in compose and '"443:443"' in compose
    assert "SAHRA_WEB_LISTEN: 0.0.0.0" in compose and 'SAHRA_WEB_PORT: "8080"' in compose
    assert "reverse_proxy {$WEB_UPSTREAMS:sahra:8080}" in caddyfile and "{$WEB_HOST}" in caddyfile


def test_caddy_balances_the_web_table_over_both_postgres_processes() -> None:
    """Round robin with health checks, no sticky sessions (any process serves any table:
    tests/bot/web/test_processes.py runs this Caddyfile in front of two processes)."""
    compose = (DEPLOY / "compose.postgres.yaml").read_text()
    caddyfile = (DEPLOY / "Caddyfile").read_text()
    assert "image: caddy:2" in compose and 'WEB_UPSTREAMS: "sahra-a:8080 sahra-b:8080"' in compose
    assert compose.count("SAHRA_WEB_LISTEN: 0.0.0.0") == 1  # in the anchor both share
    assert "lb_policy round_robin" in caddyfile and "health_uri /healthz" in caddyfile
