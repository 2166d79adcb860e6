"""The vendored Discord Embedded App SDK (bot/web/static/vendor/discord-sdk.js, built by
tools/discord_sdk/build.sh): the committed bundle is the one its record describes, of the
version the build pins, under its licence, standing alone (it imports nothing and loads no
script from another site), and served unchanged under /static/vendor/. No Node here: these
read the committed files."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from bot.web import server
from bot.web.assets import Assets

ROOT = Path(__file__).resolve().parents[3]
STATIC = Path(server.__file__).parent / "static"
VENDOR = STATIC / "vendor"
BUNDLE = VENDOR / "discord-sdk.js"
RECORD = VENDOR / "discord-sdk.json"
LICENCE = VENDOR / "discord-sdk.LICENSE.txt"
BUILD = ROOT / "tools" / "discord_sdk"
PACKAGE = "@discord/embedded-app-sdk"
# Every URL the bundle holds: the origins the SDK takes messages from (Discord's clients
# and its local test client) and the documentation link of one error message (uuid's).
KNOWN_URLS = {
    "https://discord.com",
    "https://discordapp.com",
    "https://ptb.discord.com",
    "https://ptb.discordapp.com",
    "https://canary.discord.com",
    "https://canary.discordapp.com",
    "https://staging.discord.co",
    "https://pax.discord.com",
    "http://localhost:3333",
    "https://github.com/uuidjs/uuid#getrandomvalues-not-supported",
}
# A module specifier: ``from "x"`` (an import or a re-export), ``import "x"``, ``import(``.
SPECIFIER = re.compile(r"""\bfrom\s*["'`]|\bimport\s*["'`(]""")


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_committed_bundle_is_the_one_its_record_names() -> None:
    record = read_json(RECORD)
    assert set(record) == {"package", "version", "esbuild", "sha256"}
    assert record["package"] == PACKAGE
    assert hashlib.sha256(BUNDLE.read_bytes()).hexdigest() == record["sha256"]


def test_the_recorded_versions_are_the_ones_the_build_pins_and_locks() -> None:
    record = read_json(RECORD)
    wanted = read_json(BUILD / "package.json")["devDependencies"]
    assert wanted[PACKAGE] == record["version"]  # an exact pin, no range
    assert wanted["esbuild"] == record["esbuild"]
    locked = read_json(BUILD / "package-lock.json")["packages"]
    for name in (PACKAGE, "esbuild"):
        entry = locked[f"node_modules/{name}"]
        assert entry["version"] == wanted[name]
        assert entry["integrity"].startswith("sha512-")


def test_the_bundle_says_what_it_is_on_its_first_line() -> None:
    version = read_json(RECORD)["version"]
    first = BUNDLE.read_text(encoding="utf-8").split("\n", 1)[0]
    assert first == (
        f"/* {PACKAGE} {version} (MIT, see discord-sdk.LICENSE.txt), "
        "bundled by tools/discord_sdk/build.sh */"
    )


def test_the_licence_file_names_the_package_its_version_and_mit() -> None:
    version = read_json(RECORD)["version"]
    text = LICENCE.read_text(encoding="utf-8")
    assert text.startswith(f"{PACKAGE} {version} ")
    assert "MIT License" in text
    assert "Copyright (c) 2024 Discord Inc." in text
    assert "Permission is hereby granted, free of charge" in text


def test_the_bundle_imports_nothing() -> None:
    source = BUNDLE.read_text(encoding="utf-8")
    assert SPECIFIER.findall(source) == []
    assert "importScripts" not in source
    assert 'createElement("script")' not in source


def test_the_bundle_names_no_site_to_load_a_script_from() -> None:
    source = BUNDLE.read_text(encoding="utf-8")
    urls = set(re.findall(r"""https?://[^\s"'`)]+""", source))
    assert urls <= KNOWN_URLS, urls - KNOWN_URLS
    assert "https://discord.com" in urls  # the allowed origins are there, so found


def test_the_bundle_exports_what_the_page_takes() -> None:
    tail = BUNDLE.read_text(encoding="utf-8").rstrip().rsplit("export{", 1)[1]
    exported = {item.split(" as ")[-1] for item in tail.removesuffix("};").split(",")}
    assert exported >= {"DiscordSDK", "Events", "Common", "Platform", "RPCCloseCodes"}


def test_the_server_serves_the_bundle_unchanged_under_static_vendor() -> None:
    files = Assets(STATIC).files
    served = files["vendor/discord-sdk.js"]  # the URL /static/vendor/discord-sdk.js
    assert served.body == BUNDLE.read_bytes()  # no import of it is rewritten or pinned
    assert served.content_type == "text/javascript; charset=utf-8"
    assert served.gzipped is not None
    assert "vendor/discord-sdk.LICENSE.txt" in files
