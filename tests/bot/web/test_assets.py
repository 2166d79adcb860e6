"""The page's files served like a game's assets (bot/web/assets.py) by the real web table:
gzip for a client that takes it (the same bytes once unpacked), plain for one that does not,
a 304 for a copy still current, a year's caching only for the URL that names the file's
current hash, an index that names those URLs, no file outside the folder whatever the path,
the favicon, and a real Chromium that loads the page with no failed or refused request."""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import re
from pathlib import Path

import aiohttp
import pytest
from multidict import CIMultiDictProxy

from bot.web import server
from bot.web.assets import IMMUTABLE, REVALIDATE, accepts_gzip
from tests.bot.support import until
from tests.bot.web.pages import open_page
from tests.bot.web.support import player, site
from tests.browser import chromium

STATIC = Path(server.__file__).parent / "static"
HUMANS = [501, 502, 503, 504]
PINNED = re.compile(r'"static/([^"?]+)\?v=([0-9a-f]+)"')
TYPES = {
    "app.js": "text/javascript",
    "style.css": "text/css",
    "favicon.svg": "image/svg+xml",
    "index.html": "text/html",
}


def short_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def unpinned(served: bytes) -> bytes:
    """A served file with the versions pinned on its references taken off again: the file
    as it is on disk (only the index's and the modules' references are pinned)."""
    return re.sub(rb"\?v=[0-9a-f]{16}", b"", served)


async def get(url: str, **headers: str) -> tuple[int, CIMultiDictProxy[str], bytes]:
    """One GET as sent, the answer's bytes as they came (no unpacking on the way)."""
    async with (
        aiohttp.ClientSession(auto_decompress=False) as http,
        http.get(url, headers=headers, skip_auto_headers=["Accept-Encoding"]) as response,
    ):
        return response.status, response.headers, await response.read()


async def raw(port: int, target: str) -> tuple[int, bytes]:
    """A request line written byte for byte (no client tidies ``..`` away on the way)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    writer.write(head.encode())
    await writer.drain()
    answer = await reader.read()  # to the end: the server closes after its answer
    writer.close()
    return int(answer.split(b" ", 2)[1]), answer


async def test_text_comes_gzipped_when_accepted_and_unpacks_to_the_file(tmp_path: Path) -> None:
    async with site(tmp_path) as run:
        for name in ("app.js", "render.js", "style.css", "favicon.svg"):
            status, headers, body = await get(
                f"{run.url}/static/{name}", **{"Accept-Encoding": "gzip, deflate, br"}
            )
            assert status == 200, name
            assert headers["Content-Encoding"] == "gzip" and headers["Vary"] == "Accept-Encoding"
            assert headers["Content-Type"].startswith(TYPES.get(name, "text/javascript"))
            _, _, plain = await get(f"{run.url}/static/{name}")
            assert (
                gzip.decompress(body) == plain and unpinned(plain) == (STATIC / name).read_bytes()
            )
            assert int(headers["Content-Length"]) == len(body) < len(plain)
            # The headers middleware still applies to these responses.
            assert "script-src 'self'" in headers["Content-Security-Policy"]
            assert headers["X-Content-Type-Options"] == "nosniff"
        _, plain_headers, plain = await get(run.url + "/")
        status, headers, packed = await get(run.url + "/", **{"Accept-Encoding": "gzip"})
        assert status == 200 and headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(packed) == plain and b"<!doctype html>" in plain
        assert headers["Cache-Control"] == REVALIDATE == plain_headers["Cache-Control"]


async def test_a_client_that_takes_no_gzip_gets_the_plain_file(tmp_path: Path) -> None:
    async with site(tmp_path) as run:
        for name, kind in TYPES.items():
            for refusing in ({}, {"Accept-Encoding": "identity"}, {"Accept-Encoding": "gzip;q=0"}):
                status, headers, body = await get(f"{run.url}/static/{name}", **refusing)
                assert status == 200
                assert "Content-Encoding" not in headers
                assert headers["Content-Type"].startswith(kind)
                assert unpinned(body) == (STATIC / name).read_bytes()
    assert accepts_gzip("br;q=1, *;q=0.5") and not accepts_gzip("*, gzip;q=0")
    assert not accepts_gzip("") and accepts_gzip("GZIP;q=0.001")


async def test_a_copy_still_current_is_answered_304_with_no_body(tmp_path: Path) -> None:
    async with site(tmp_path) as run:
        for path in ("/static/app.js", "/static/favicon.svg", "/"):
            for encoding in ("gzip", "identity"):
                url = run.url + path
                status, headers, _ = await get(url, **{"Accept-Encoding": encoding})
                tag = headers["ETag"]
                assert status == 200 and re.fullmatch(r'"[0-9a-f]{16}(-gz)?"', tag)
                status, again, body = await get(
                    url, **{"Accept-Encoding": encoding, "If-None-Match": tag}
                )
                assert (status, body) == (304, b"") and again["ETag"] == tag
                assert again["Cache-Control"] == REVALIDATE
                # A weak form of the tag, or one of several, matches as well.
                listed = f'"0000", W/{tag}'
                status, _, _ = await get(
                    url, **{"Accept-Encoding": encoding, "If-None-Match": listed}
                )
                assert status == 304
                status, _, body = await get(url, **{"If-None-Match": '"0123456789abcdef"'})
                assert status == 200 and body


async def test_only_the_url_naming_the_current_hash_is_cached_for_a_year(tmp_path: Path) -> None:
    async with site(tmp_path) as run:
        for name in ("app.js", "style.css", "favicon.svg"):
            current = short_hash((await get(f"{run.url}/static/{name}"))[2])
            _, headers, _ = await get(f"{run.url}/static/{name}?v={current}")
            assert headers["Cache-Control"] == IMMUTABLE == "public, max-age=31536000, immutable"
            for other in ("?v=0123456789abcdef", "?v=", f"?v={current[:-1]}", ""):
                status, headers, body = await get(f"{run.url}/static/{name}{other}")
                assert status == 200 and body  # the file as it is now, to be revalidated
                assert headers["Cache-Control"] == REVALIDATE


async def test_the_index_names_each_asset_by_its_hash_and_those_urls_resolve(
    tmp_path: Path,
) -> None:
    async with site(tmp_path) as run:
        status, headers, body = await get(run.url + "/")
        assert status == 200 and headers["Cache-Control"] == REVALIDATE
        html = body.decode()
        pinned = PINNED.findall(html)
        named = set(re.findall(r'"static/([^"?]+)', (STATIC / "index.html").read_text()))
        assert named and {name for name, _ in pinned} == named
        assert not re.search(r'"static/[^"?]+"', html)  # no reference left unpinned
        for name, version in pinned:
            status, headers, body = await get(f"{run.url}/static/{name}?v={version}")
            assert status == 200 and version == short_hash(body)
            assert unpinned(body) == (STATIC / name).read_bytes()
            assert headers["Cache-Control"] == IMMUTABLE


async def test_each_module_imports_the_others_by_their_current_hash(tmp_path: Path) -> None:
    """From the index down the import chain every URL names its file's hash: a page with a
    current index asks for no module again (each is cached immutably)."""
    async with site(tmp_path) as run:
        html = (await get(run.url + "/"))[2].decode()
        waiting = [(name, version) for name, version in PINNED.findall(html)]
        seen: set[str] = set()
        while waiting:
            name, version = waiting.pop()
            seen.add(name)
            status, headers, body = await get(f"{run.url}/static/{name}?v={version}")
            assert status == 200 and headers["Cache-Control"] == IMMUTABLE
            assert short_hash(body) == version
            source = body.decode()
            # Every import of a module of the folder carries a version, and no other text.
            imports = re.findall(r'\bfrom\s*"\./([^"]+)"', source)
            assert all(re.fullmatch(r"[\w.-]+\.js\?v=[0-9a-f]{16}", i) for i in imports)
            waiting += [tuple(i.split("?v=")) for i in imports]
        assert {"app.js", "render.js", "cards.js"} <= seen


async def test_module_pins_follow_paths_dynamic_imports_and_stop_at_a_circle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "static"
    (folder / "lib").mkdir(parents=True)
    (folder / "a.js").write_text(
        'import { b } from "./lib/b.js";\nconst c = import("/static/c.js");\n'
        'import "https://telegram.org/js/x.js";\nimport "./missing.js";\n'
    )
    (folder / "lib" / "b.js").write_text('export { c } from "../c.js"; export const b = 1;')
    (folder / "c.js").write_text('import { d } from "./d.js"; export const c = d;')
    (folder / "d.js").write_text('import { c } from "./c.js"; export const d = 1;')
    monkeypatch.setattr(server, "STATIC", folder)
    async with site(tmp_path) as run:

        async def served(name: str) -> str:
            return (await get(f"{run.url}/static/{name}"))[2].decode()

        a, b, c, d = [await served(n) for n in ("a.js", "lib/b.js", "c.js", "d.js")]
        assert f'from "../c.js?v={short_hash(c.encode())}"' in b
        assert f'from "./lib/b.js?v={short_hash(b.encode())}"' in a
        assert f'import("/static/c.js?v={short_hash(c.encode())}")' in a
        assert '"https://telegram.org/js/x.js"' in a and '"./missing.js"' in a
        # c and d import each other: one of the two imports is left to be revalidated.
        assert (f'"./d.js?v={short_hash(d.encode())}"' in c) != (
            f'"./c.js?v={short_hash(c.encode())}"' in d
        )


async def test_no_path_reaches_a_file_that_was_not_read_from_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "static"
    (folder / "sub").mkdir(parents=True)
    (folder / "index.html").write_text('<script src="static/sub/x.js"></script>')
    (folder / "sub" / "x.js").write_text("export const x = 1;")
    (folder / ".env").write_text("SECRET=hidden-dot-file")
    (folder / ".git").mkdir()
    (folder / ".git" / "config").write_text("SECRET=hidden-folder")
    outside = tmp_path / "outside.txt"
    outside.write_text("SECRET=outside")
    (folder / "link.txt").symlink_to(outside)
    (folder / "linked").symlink_to(tmp_path)
    monkeypatch.setattr(server, "STATIC", folder)
    async with site(tmp_path) as run:
        status, _, body = await get(run.url + "/static/sub/x.js")
        assert status == 200 and body == b"export const x = 1;"
        assert b'"static/sub/x.js?v=' in (await get(run.url + "/"))[2]
        for target in (
            "/static/../outside.txt",
            "/static/%2e%2e/outside.txt",
            "/static/..%2foutside.txt",
            "/static/sub/../../outside.txt",
            "/static/sub/..%2f..%2foutside.txt",
            "/static//etc/passwd",
            "/static/%2fetc%2fpasswd",
            "/static/.env",
            "/static/.git/config",
            "/static/link.txt",
            "/static/linked/outside.txt",
            "/static/nowhere/x.js",
            "/static/sub",
            "/static/sub/",
            "/static/",
            "/static/x.js%00.js",
        ):
            status, answer = await raw(run.web.port, target)
            assert status in (400, 404), target  # aiohttp may refuse a malformed path itself
            assert b"SECRET" not in answer and b"root:" not in answer, target


async def test_the_favicon_is_served_at_both_addresses(tmp_path: Path) -> None:
    svg = (STATIC / "favicon.svg").read_bytes()
    assert len(svg) < 1024 and svg.startswith(b"<svg")
    async with site(tmp_path) as run:
        for path in ("/favicon.ico", "/static/favicon.svg"):
            status, headers, body = await get(run.url + path)
            assert status == 200 and body == svg
            assert headers["Content-Type"] == "image/svg+xml"


async def test_an_asset_edited_while_running_is_served_as_read_at_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "a.js").write_text("export const a = 1;")
    monkeypatch.setattr(server, "STATIC", folder)
    async with site(tmp_path) as run:
        (folder / "a.js").write_text("export const a = 2;")
        assert (await get(run.url + "/static/a.js"))[2] == b"export const a = 1;"


async def test_chromium_loads_the_page_with_no_failed_or_refused_request(tmp_path: Path) -> None:
    async with site(tmp_path) as run, chromium() as browser:
        table = await run.table(HUMANS)
        context = await browser.new_context(viewport={"width": 390, "height": 844})
        failed: list[str] = []
        answered: list[tuple[int, str]] = []
        errors: list[str] = []
        for round_ in ("cold", "warm"):  # a second page in the same cache: 304s, no errors
            seen = await open_page(context, "about:blank", 0)
            seen.page.on("requestfailed", lambda r: failed.append(f"{r.url} {r.failure}"))
            seen.page.on("response", lambda r: answered.append((r.status, r.url)))
            # A personal link (no Telegram script to stand in for: every request the page
            # makes is to this server), opened at the address the test listens on.
            link = run.web.personal_link("telegram", table, player(HUMANS[0], "P501"))
            await seen.page.goto(run.url + "/#" + link.partition("#")[2])
            await until(lambda s=seen: s.drawn >= 0, f"the {round_} page drew the table")
            errors += seen.frames.errors
            await seen.page.close()
        assert failed == []
        assert [(status, url) for status, url in answered if status >= 400] == []
        assert any("/static/app.js" in url for _, url in answered)
        assert errors == []
