"""Settings from the environment (and an optional ``.env``), validated at start-up.

Every variable is ``SAHRA_<NAME>``; a wrong value stops the bot with a message naming it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote, urlsplit

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# Telegram's own rule for ``secret_token``; fewer than 16 characters is guessable.
WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
MIN_WEBHOOK_SECRET = 16


def shard_spec(text: str) -> tuple[list[int], int]:
    """``0-7/8``, ``0,1,2,3/4`` or ``8`` → (shard ids, shard count). A subset runs those
    shards here and owns their servers' tables; the other shards must run in other
    processes on the same PostgreSQL database (docs/scaling.md)."""
    ids_text, _, count_text = text.strip().partition("/")
    try:
        count = int(count_text or ids_text)
        ids: list[int] = []
        if count_text:
            for part in ids_text.split(","):
                low, _, high = part.partition("-")
                ids.extend(range(int(low), int(high or low) + 1))
        else:
            ids = list(range(count))
    except ValueError:
        raise ValueError("write the shards as 0-7/8, 0,1,2,3/4 or 8") from None
    if count < 1 or any(not 0 <= shard < count for shard in ids):
        raise ValueError(f"shard ids run from 0 to {max(count - 1, 0)}")
    if not ids:
        raise ValueError("name at least one shard")
    return sorted(set(ids)), count


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SAHRA_", env_file=".env", extra="ignore")

    database: Path = Field(default=Path("sahra.sqlite"), description="the SQLite file")
    database_url: SecretStr | None = Field(
        default=None,
        description="postgresql://user:password@host:port/db: PostgreSQL instead of SQLite",
    )
    sqlite_synchronous: Literal["FULL", "NORMAL"] = Field(
        default="FULL", description="FULL survives power loss; NORMAL survives a crash"
    )
    default_language: Literal["ar", "en"] = "ar"
    turn_seconds: int = Field(default=60, ge=5, le=3600, description="default time per card")
    bid_seconds: int = Field(default=60, ge=5, le=3600, description="default time per bid")
    difficulty: Literal["easy", "hard"] = Field(default="easy", description="computers")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["text", "json"] = "text"
    telegram_token: SecretStr | None = Field(default=None, description="from @BotFather")
    telegram_api_url: str | None = Field(
        default=None, description="a self-hosted Bot API server, e.g. http://localhost:8081/bot"
    )
    telegram_webhook_url: str | None = Field(
        default=None, description="public HTTPS URL for webhook mode (polling when unset)"
    )
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = Field(default=8443, ge=1, le=65535)
    telegram_webhook_secret: SecretStr | None = Field(
        default=None,
        description="the webhook's secret token (16-256 of A-Z a-z 0-9 _ -); unset: one is"
        " made once and kept in the database, so every process shares it",
    )
    # Telegram's write limits (bot/delivery/outbox.py). Lower only for a Bot API server
    # without them, such as the tests' fake one, where waiting them out only costs time.
    telegram_group_interval: float = Field(
        default=3.5, ge=0, le=60, description="seconds between two writes in one group"
    )
    telegram_private_interval: float = Field(
        default=1.0, ge=0, le=60, description="seconds between two writes in one private chat"
    )
    discord_token: SecretStr | None = Field(default=None, description="the bot token")
    discord_api_url: str = Field(
        default="https://discord.com/api/v10",
        description="Discord's REST API; the gateway is the one this server names (tests: a fake)",
    )
    discord_guild: int | None = Field(
        default=None, description="sync commands to this guild at once (development)"
    )
    discord_activity: bool = Field(
        default=False,
        description="the application has Activities enabled (docs/discord-activity.md): the"
        " table opens inside Discord; needs the client id and secret and the web table",
    )
    discord_client_id: int | None = Field(
        default=None, description="the application's id (the Developer Portal's client id)"
    )
    discord_client_secret: SecretStr | None = Field(
        default=None, description="the OAuth2 client secret: the Activity's code exchange"
    )
    discord_shards: str | None = Field(
        default=None,
        description="the gateway shards this process runs: 0-7/8 (or 8); a subset such as"
        " 0-3/8 needs PostgreSQL; unset: Discord's recommended count, all in this process",
    )

    web_url: str | None = Field(
        default=None,
        description="the public base URL of the web table (HTTPS in production;"
        " http://127.0.0.1:… for local use); unset: no web table",
    )
    web_listen: str = Field(default="127.0.0.1", description="the web table listens here")
    web_port: int = Field(default=8080, ge=0, le=65535, description="the web table's port")
    web_pace: float = Field(
        default=1.0,
        ge=0,
        le=4,
        description="how slowly the web table shows each move (1: as players expect; 0:"
        " at once, for tests); a seat on the page gets this time back on its turn clock",
    )
    telegram_webapp: str | None = Field(
        default=None,
        description="the Mini App's short name registered with @BotFather /newapp; unset:"
        " the bot's Main Mini App (t.me/<bot>?startapp=…)",
    )

    @field_validator("web_url")
    @classmethod
    def _web_url(cls, value: str | None) -> str | None:
        if not value:
            return None
        parts = urlsplit(value)
        local = parts.hostname in ("127.0.0.1", "localhost", "::1")
        if parts.scheme != "https" and not (parts.scheme == "http" and local):
            raise ValueError("must be an https:// URL (http:// only for 127.0.0.1 or localhost)")
        if parts.query or parts.fragment:
            raise ValueError("a base URL: no ?query and no #fragment")
        return value.rstrip("/")

    @field_validator("telegram_webapp")
    @classmethod
    def _webapp_name(cls, value: str | None) -> str | None:
        # BotFather's short names: 3-30 of letters, digits and underscores.
        if value and not re.fullmatch(r"[A-Za-z0-9_]{3,30}", value):
            raise ValueError("the short name from @BotFather /newapp: 3-30 of A-Z a-z 0-9 _")
        return value or None

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith(
            ("postgresql://", "postgres://")
        ):
            raise ValueError("must be a postgresql:// URL (unset: the SQLite file)")
        return value

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _webhook_secret(cls, value: SecretStr | None) -> SecretStr | None:
        # The message never quotes the value: it is a credential.
        if value is None or not value.get_secret_value():
            return None  # an empty line in .env: made and kept in the database instead
        secret = value.get_secret_value()
        if not WEBHOOK_SECRET.fullmatch(secret):
            raise ValueError("Telegram takes 1-256 characters of A-Z a-z 0-9 _ -")
        if len(secret) < MIN_WEBHOOK_SECRET:
            raise ValueError(
                f"at least {MIN_WEBHOOK_SECRET} characters (or unset: Sahra makes a strong"
                " one and keeps it in the database)"
            )
        return value

    @field_validator("discord_shards")
    @classmethod
    def _shards(cls, value: str | None) -> str | None:
        if value is not None:
            shard_spec(value)  # raises ValueError with the reason
        return value

    @model_validator(mode="after")
    def _subset_needs_postgres(self) -> Settings:
        if self.discord_shards and self.database_url is None:
            ids, count = shard_spec(self.discord_shards)
            if len(ids) < count:
                raise ValueError(
                    "discord_shards: running some of the shards here needs the other"
                    " processes on the same database: set SAHRA_DATABASE_URL (PostgreSQL)"
                )
        return self

    @model_validator(mode="after")
    def _activity_needs(self) -> Settings:
        # An Activity is the web table inside Discord, signed in with OAuth2's code flow:
        # without any of these it could only fail in front of the players.
        if self.discord_activity:
            missing = [
                name
                for name, value in (
                    ("SAHRA_DISCORD_TOKEN", self.discord_token),
                    ("SAHRA_DISCORD_CLIENT_ID", self.discord_client_id),
                    ("SAHRA_DISCORD_CLIENT_SECRET", self.discord_client_secret),
                    ("SAHRA_WEB_URL", self.web_url),
                )
                if value is None
            ]
            if missing:
                raise ValueError(f"discord_activity needs {', '.join(missing)}")
        return self

    def discord_shard_plan(self) -> tuple[list[int] | None, int | None]:
        """(shard ids, shard count) for the Discord client; (None, None): Discord's
        recommended count, every shard in this process."""
        return shard_spec(self.discord_shards) if self.discord_shards else (None, None)

    @field_validator("discord_api_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        # discord.py appends each route ("/users/@me") to this base as it is.
        if not value.startswith(("https://", "http://")):
            raise ValueError("must be an http(s) URL such as https://discord.com/api/v10")
        return value.rstrip("/")

    def database_address(self) -> str | None:
        """The PostgreSQL URL, or None for the SQLite file."""
        return self.database_url.get_secret_value() if self.database_url else None

    def secrets(self) -> list[str]:
        """Every configured secret, for the logs to redact wherever one appears: the
        platform tokens, the webhook secret, the database's password (its URL is no secret
        without it, and says which server a failure was about)."""
        values = [
            secret.get_secret_value()
            for secret in (
                self.telegram_token,
                self.telegram_webhook_secret,
                self.discord_token,
                self.discord_client_secret,
            )
            if secret is not None
        ]
        if self.database_url is not None:
            password = urlsplit(self.database_url.get_secret_value()).password
            if password:
                values += [password, unquote(password)]
        return values

    def table_defaults(self) -> dict[str, Any]:
        """What a new table gets unless its creator chose otherwise."""
        return {
            "turn_seconds": self.turn_seconds,
            "bid_seconds": self.bid_seconds,
            "difficulty": self.difficulty,
        }

    def telegram_webhook(self, stored_secret: str | None = None) -> dict[str, object] | None:
        """The webhook receiver's arguments (``bot/telegram/webhook.py``), or None to poll.
        The secret token is the configured one, else ``stored_secret`` (made once and kept
        in the database); there is no webhook without one: without the check of its header
        anyone who reaches the port could post an update in any player's name."""
        if not self.telegram_webhook_url:
            return None
        configured = self.telegram_webhook_secret
        secret = configured.get_secret_value() if configured else stored_secret
        if not secret:
            raise ValueError("a webhook needs a secret token")
        return {
            "listen": self.telegram_webhook_listen,
            "port": self.telegram_webhook_port,
            "url_path": "telegram",
            "webhook_url": self.telegram_webhook_url.rstrip("/") + "/telegram",
            "secret_token": secret,
        }
