"""The page's files, served like a game's assets: read once, hashed, compressed once.

At start-up every file of the static folder is read into memory (the page is a few small
files), with a strong ETag from its content's SHA-256 and, for text, a gzip copy made once
when it is smaller. A request then costs a dictionary look-up: no disk, no compression per
response, and no path is ever joined to the folder, so a name that was not read at
start-up (``..``, a hidden file, a folder that is not there) is simply not found.

Caching. ``/static/<name>`` is revalidated on every use (``no-cache``: a 304 costs one
round trip and no body): a URL with no version, as a module's import is written on disk
(``import … from "./render.js"``), may name a file that has changed. The same URL with
``?v=<its current hash>`` is cached for a year (``immutable``). At start-up the index is
served with every ``"/static/<name>"`` it names rewritten to
``"/static/<name>?v=<hash>"``, and each module with its imports of the folder's modules
rewritten the same way (``pinned_modules``), so a new asset reaches every page at its next
load while an unchanged one is never asked for again: a warm page costs the index's 304.

The files are read once: one edited on disk while the server runs is served as it was at
start-up until the process restarts (a deploy restarts it).
"""

from __future__ import annotations

import gzip
import hashlib
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

INDEX = "index.html"
FAVICON = "favicon.svg"
HASH_LENGTH = 16  # hex digits of SHA-256 kept: 64 bits, no collision among a few files
YEAR = 365 * 24 * 3600
REVALIDATE = "no-cache"
IMMUTABLE = f"public, max-age={YEAR}, immutable"
# By suffix, not by the system's mimetypes table: some systems still map .js to
# application/javascript, and a module script must come as JavaScript under nosniff.
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
    ".png": "image/png",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
}
COMPRESSIBLE = ("text/", "image/svg+xml", "application/json")
# Relative (``"static/app.js"``): the page is served under ``/`` and, inside Discord, under
# ``/.proxy/`` as well, and its files must come from the same prefix as the page.
REFERENCE = re.compile(r'"static/([^"?#]+)"')
MODULES = (".js", ".mjs")
# A module specifier after ``from`` or ``import`` (static, dynamic or bare side-effect
# import), quoted, with no query yet.
SPECIFIER = re.compile(r"""(\bfrom\s*|\bimport\s*\(?\s*)(["'])([^"'?#\s]+)\2""")


@dataclass(frozen=True)
class Asset:
    """One file as served: its bytes, its gzip copy (None: not worth it, or not text),
    its content type and its content hash (the version ``?v=`` names)."""

    body: bytes
    gzipped: bytes | None
    content_type: str
    version: str

    @property
    def etag(self) -> str:
        return f'"{self.version}"'

    @property
    def gzip_etag(self) -> str:
        # Another strong tag for the other bytes: a strong ETag names one representation.
        return f'"{self.version}-gz"'


def asset(body: bytes, suffix: str) -> Asset:
    kind = TYPES.get(suffix.lower(), "application/octet-stream")
    packed = None
    if kind.startswith(COMPRESSIBLE):
        # mtime=0: the same file compresses to the same bytes on every start and process.
        squeezed = gzip.compress(body, compresslevel=9, mtime=0)
        packed = squeezed if len(squeezed) < len(body) else None
    version = hashlib.sha256(body).hexdigest()[:HASH_LENGTH]
    return Asset(body, packed, kind, version)


def read_folder(folder: Path, under: str = "") -> dict[str, Asset]:
    """Every regular file under ``folder`` by its path there (``a/b.js``), hidden files and
    folders and symbolic links left out (as ``add_static(follow_symlinks=False)`` did: a
    link could lead out of the folder)."""
    found: dict[str, Asset] = {}
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or path.is_symlink():
            continue
        name = under + path.name
        if path.is_dir():
            found.update(read_folder(path, name + "/"))
        elif path.is_file():
            found[name] = asset(path.read_bytes(), path.suffix)
    return found


def versioned(html: bytes, files: dict[str, Asset]) -> bytes:
    """``html`` with each ``"static/<name>"`` of a known file made ``…?v=<hash>``."""

    def pin(match: re.Match[str]) -> str:
        name = match.group(1)
        known = files.get(name)
        return f'"static/{name}?v={known.version}"' if known else match.group(0)

    return REFERENCE.sub(pin, html.decode()).encode()


def pinned_modules(files: dict[str, Asset]) -> dict[str, Asset]:
    """Every JavaScript module with its imports of other modules of the folder (``from
    "./render.js"``, ``import("/static/x.js")``) made ``…?v=<hash>``: a page whose index is
    current then asks for no module again until one changes, where each import would
    otherwise cost a revalidation, one round trip after the other down the import chain.

    A module's hash is that of its served text, which names its imports' hashes: a change
    anywhere below reaches every module above it, and the index. Modules are pinned from
    the bottom up; an import that closes a circle is left as written (revalidated)."""
    done: dict[str, Asset] = {}

    def target(importer: str, specifier: str) -> str | None:
        if specifier.startswith("/static/"):
            name = specifier.removeprefix("/static/")
        elif specifier.startswith(("./", "../")):
            name = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
        else:
            return None  # another site's script, or a bare name: not ours to pin
        return name if name in files and name.endswith(MODULES) else None

    def pin(name: str, above: frozenset[str]) -> Asset:
        if name in done:
            return done[name]

        def pinned(match: re.Match[str]) -> str:
            lead, quote, specifier = match.groups()
            found = target(name, specifier)
            if found is None or found in above or found == name:
                return match.group(0)
            version = pin(found, above | {name}).version
            return f"{lead}{quote}{specifier}?v={version}{quote}"

        source = files[name].body.decode()
        done[name] = asset(SPECIFIER.sub(pinned, source).encode(), posixpath.splitext(name)[1])
        return done[name]

    return {name: pin(name, frozenset()) for name in files if name.endswith(MODULES)}


def accepts_gzip(header: str) -> bool:
    """Whether an Accept-Encoding allows gzip (``gzip;q=0`` refuses it, ``*`` allows it
    unless gzip itself is refused)."""
    weights: dict[str, float] = {}
    for item in header.split(","):
        coding, _, params = item.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        weights[coding.strip().lower()] = weight
    if "gzip" in weights or "x-gzip" in weights:
        return max(weights.get("gzip", 0.0), weights.get("x-gzip", 0.0)) > 0
    return weights.get("*", 0.0) > 0


def matches(header: str, tags: tuple[str, ...]) -> bool:
    """If-None-Match's weak comparison (RFC 9110, 13.1.2): ``W/`` is ignored."""
    offered = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    return "*" in offered or bool(offered & set(tags))


class Assets:
    """The static folder in memory and the handlers that serve it."""

    def __init__(self, folder: Path) -> None:
        self.files = read_folder(folder)
        self.files.update(pinned_modules(self.files))
        index = self.files.get(INDEX)
        if index is not None:
            # Pinned once, here: the index's own hash then changes with any asset's.
            self.files[INDEX] = asset(versioned(index.body, self.files), ".html")

    def add_routes(self, app: web.Application, prefixes: tuple[str, ...] = ("",)) -> None:
        """The page, its favicon and its files under each of ``prefixes`` ("": the root;
        "/.proxy": as Discord's Activity proxy may forward them)."""
        for prefix in prefixes:
            app.router.add_get(f"{prefix}/", self.index)
            app.router.add_get(f"{prefix}/favicon.ico", self.favicon)
            app.router.add_get(prefix + "/static/{name:.+}", self.static)

    def version(self, name: str) -> str:
        return self.files[name].version

    async def index(self, request: web.Request) -> web.Response:
        return self.respond(request, INDEX)

    async def favicon(self, request: web.Request) -> web.Response:
        # Browsers ask for /favicon.ico by habit; Chrome takes the SVG by its type.
        return self.respond(request, FAVICON)

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        found = self.files.get(name)
        pinned = found is not None and request.query.get("v") == found.version
        return self.respond(request, name, IMMUTABLE if pinned else REVALIDATE)

    def respond(self, request: web.Request, name: str, caching: str = REVALIDATE) -> web.Response:
        found = self.files.get(name)
        if found is None:
            # Returned, not raised: the headers middleware (CSP, nosniff) sees it too.
            return web.Response(status=404, text="Not found")
        packed = found.gzipped is not None and accepts_gzip(
            request.headers.get("Accept-Encoding", "")
        )
        headers = {
            "Cache-Control": caching,
            "ETag": found.gzip_etag if packed else found.etag,
        }
        if found.gzipped is not None:
            headers["Vary"] = "Accept-Encoding"  # a cache keeps both encodings apart
        if matches(request.headers.get("If-None-Match", ""), (found.etag, found.gzip_etag)):
            return web.Response(status=304, headers=headers)
        if packed:
            headers["Content-Encoding"] = "gzip"
        body = found.gzipped if packed else found.body
        headers["Content-Type"] = found.content_type
        return web.Response(body=body, headers=headers)
