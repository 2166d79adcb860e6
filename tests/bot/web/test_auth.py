"""Credentials: Telegram's launch data checked as core.telegram.org/bots/webapps says, with
a mandatory age limit of an hour; our own link and session tokens signed, bounded in time,
of one kind. (A link good once on every process, and a session that ends with its table:
``test_gate.py``.)"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import urllib.parse

import pytest

from bot.web.auth import (
    INIT_DATA_MAX_AGE,
    LINK_SECONDS,
    LaunchRefused,
    Signer,
    TokenRefused,
    validate_init_data,
)
from tests.bot.web.support import TOKEN, forge_init_data

NOW = 1_800_000_000
ALI = {"id": 201, "first_name": "علي", "last_name": "K", "language_code": "ar"}
# A launch signed for TOKEN at NOW - 60. The hash was computed apart from our code, with
# OpenSSL (`openssl dgst -sha256 -hmac WebAppData` for the key, then `-mac HMAC` over the
# data-check string), so the check and the test helper cannot drift together.
VECTOR = (
    "auth_date=1799999940&chat_instance=-8428209589180549439&chat_type=supergroup"
    "&start_param=t7&user=%7B%22id%22%3A201%2C%22first_name%22%3A%22%D8%B9%D9%84%D9%8A"
    "%22%2C%22last_name%22%3A%22K%22%2C%22language_code%22%3A%22ar%22%7D"
    "&hash=0abca790f8ff6beeeb6a7a63649542b3a87e61521cc5316c78ca65c23823960b"
)


def vector() -> str:
    return VECTOR


def test_launch_data_signed_for_this_bot_gives_the_user_and_the_table() -> None:
    launch = validate_init_data(vector(), TOKEN, now=NOW)
    assert launch.user_id == 201
    assert launch.name == "علي K"
    assert launch.language == "ar"
    assert launch.start_param == "t7"
    assert launch.auth_date == NOW - 60


def test_the_test_helper_signs_as_telegram_does() -> None:
    assert forge_init_data(ALI, TOKEN, "t7", NOW - 60) == VECTOR


def test_fields_telegram_adds_later_such_as_signature_are_part_of_the_check() -> None:
    fields = dict(urllib.parse.parse_qsl(vector()))
    fields["signature"] = "Wn1Xo5Ob"  # not in the hash: someone added it
    with pytest.raises(LaunchRefused) as refused:
        validate_init_data(urllib.parse.urlencode(fields), TOKEN, now=NOW)
    assert refused.value.code == "bad_hash"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda f: f.update(user=f["user"].replace("201", "202")), "bad_hash"),  # tampered
        (lambda f: f.update(start_param="t8"), "bad_hash"),  # another table
        (lambda f: f.update(hash="0" * 64), "bad_hash"),
        (lambda f: f.pop("hash"), "bad_hash"),
    ],
)
def test_tampered_launch_data_is_refused(change: object, code: str) -> None:
    fields = dict(urllib.parse.parse_qsl(vector()))
    change(fields)  # type: ignore[operator]
    with pytest.raises(LaunchRefused) as refused:
        validate_init_data(urllib.parse.urlencode(fields), TOKEN, now=NOW)
    assert refused.value.code == code


def test_launch_data_signed_for_another_bot_is_refused() -> None:
    with pytest.raises(LaunchRefused) as refused:
        validate_init_data(vector(), "999:another-bot", now=NOW)
    assert refused.value.code == "bad_hash"


def test_launch_data_older_than_the_limit_is_refused_even_when_genuine() -> None:
    raw = vector()
    assert validate_init_data(raw, TOKEN, now=NOW + 3600, max_age=3700)
    with pytest.raises(LaunchRefused) as refused:
        validate_init_data(raw, TOKEN, now=NOW + 3600, max_age=3600)
    assert refused.value.code == "expired"


def test_launch_data_is_taken_for_an_hour_not_a_day() -> None:
    """Issue 32, item 6: a launch URL that leaked opened the seat for 24 hours."""
    assert INIT_DATA_MAX_AGE == 3600
    raw = vector()  # signed at NOW - 60
    assert validate_init_data(raw, TOKEN, now=NOW - 60 + 30 * 60).user_id == 201
    with pytest.raises(LaunchRefused) as refused:
        validate_init_data(raw, TOKEN, now=NOW - 60 + 2 * 3600)
    assert refused.value.code == "expired"


def test_launch_data_from_the_future_is_refused() -> None:
    with pytest.raises(LaunchRefused) as refused:
        validate_init_data(vector(), TOKEN, now=NOW - 3600)
    assert refused.value.code == "future"


@pytest.mark.parametrize(
    "raw",
    ["", "garbage", "hash=&hash=", "a=1&a=2&hash=00", "%zz=1", "user=1&user=2"],
)
def test_garbage_launch_data_is_refused(raw: str) -> None:
    with pytest.raises(LaunchRefused):
        validate_init_data(raw, TOKEN, now=NOW)


def test_genuine_launch_data_without_a_user_is_refused() -> None:
    fields = {"auth_date": str(NOW), "start_param": "t1"}
    raw = forge_init_data(ALI, TOKEN, "t1", NOW)
    signed = dict(urllib.parse.parse_qsl(raw))
    assert signed["user"]
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    with pytest.raises(LaunchRefused) as refused:
        validate_init_data(urllib.parse.urlencode(fields), TOKEN, now=NOW)
    assert refused.value.code == "malformed"


SIGNER = Signer(b"s" * 32)


def issue(kind: str = "link", expires: float = NOW + LINK_SECONDS, **more: str) -> str:
    return SIGNER.issue(
        kind,
        platform="discord",
        user_id="4242",
        table=9,
        name="<img src=x onerror=alert(1)>",
        language="en",
        expires=expires,
        **more,
    )


def test_a_link_we_signed_names_its_player_and_table() -> None:
    claims = SIGNER.verify(issue(), "link", now=NOW)
    assert (claims.platform, claims.user_id, claims.table) == ("discord", "4242", 9)
    assert claims.name == "<img src=x onerror=alert(1)>"
    assert claims.kind == "link" and claims.nonce


def test_tokens_are_url_safe_so_they_ride_in_a_fragment() -> None:
    token = issue()
    assert all(c.isalnum() or c in "-_." for c in token)


def test_a_short_secret_is_refused() -> None:
    with pytest.raises(ValueError):
        Signer(b"short")


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        ("", "malformed"),
        ("no-dot", "malformed"),
        ("a.b", "malformed"),
        ("YWJj.YWJj", "forged"),
        (
            Signer(b"t" * 32).issue(
                "link",
                platform="discord",
                user_id="1",
                table=9,
                name="",
                language="en",
                expires=NOW + 60,
            ),
            "forged",
        ),  # another installation's secret
    ],
)
def test_a_token_we_did_not_sign_is_refused(token: str, reason: str) -> None:
    with pytest.raises(TokenRefused) as refused:
        SIGNER.verify(token, "link", now=NOW)
    assert refused.value.code == "bad_link" and refused.value.reason == reason


def test_a_tampered_token_is_refused() -> None:
    body, mac = issue().split(".")
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    payload["t"] = 10  # another table
    forged = base64.urlsafe_b64encode(json.dumps(payload).encode()).rstrip(b"=").decode()
    with pytest.raises(TokenRefused) as refused:
        SIGNER.verify(f"{forged}.{mac}", "link", now=NOW)
    assert refused.value.reason == "forged"


def test_an_expired_token_is_refused() -> None:
    token = issue(expires=NOW + 10)
    assert SIGNER.verify(token, "link", now=NOW + 9)
    with pytest.raises(TokenRefused) as refused:
        SIGNER.verify(token, "link", now=NOW + 10)
    assert refused.value.reason == "expired"


def test_a_link_is_not_a_session_nor_a_session_a_link() -> None:
    with pytest.raises(TokenRefused) as refused:
        SIGNER.verify(issue("link"), "session", now=NOW)
    assert (refused.value.code, refused.value.reason) == ("bad_session", "kind")
    with pytest.raises(TokenRefused) as refused:
        SIGNER.verify(issue("session"), "link", now=NOW)
    assert (refused.value.code, refused.value.reason) == ("bad_link", "kind")
