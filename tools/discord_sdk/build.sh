#!/usr/bin/env bash
# Rebuilds bot/web/static/vendor/discord-sdk.js, the one-file ES module of the official
# Discord Embedded App SDK that the web page imports, with its record (discord-sdk.json)
# and its licences (discord-sdk.LICENSE.txt). Run it through `make discord-sdk`.
#
# Node and npm are needed only here, to rebuild the vendored file: never to run Sahra or
# its tests, which read the committed files. The versions are pinned exactly in
# package.json and package-lock.json, and the same inputs give the same bytes.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/bot/web/static/vendor"
package="@discord/embedded-app-sdk"

cd "$here"
# --ignore-scripts: esbuild's postinstall only swaps its launcher for the binary, which
# its platform package (an optional dependency in the lock) already brings.
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

version="$(node -p "require('$package/package.json').version")"
pinned="$(node -p "require('./package.json').devDependencies['$package']")"
if [[ "$version" != "$pinned" ]]; then
    echo "installed $package $version, but package.json pins $pinned" >&2
    exit 1
fi
esbuild_version="$(node_modules/.bin/esbuild --version)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

node_modules/.bin/esbuild entry.js --bundle --format=esm --minify --legal-comments=none \
    --target=es2020 --log-level=warning --metafile="$work/meta.json" --outfile="$work/bundle.js"

# The bundle must stand alone: nothing left for the browser to import.
if grep -Eq '(^|[^A-Za-z0-9_$])(import|export)[^;]*from ?["'\'']|import\(' "$work/bundle.js"; then
    echo "the bundle still imports something" >&2
    exit 1
fi

mkdir -p "$out"
{
    echo "/* $package $version (MIT, see discord-sdk.LICENSE.txt), bundled by tools/discord_sdk/build.sh */"
    cat "$work/bundle.js"
} >"$out/discord-sdk.js"

# The SDK's package carries copies of the libraries it uses (output/lib/<name>/); the
# licence file takes the SDK's licence and that of each such library left in the bundle,
# read from the library's own npm package as the lock installs it.
node - "$work/meta.json" "$package" "$version" >"$out/discord-sdk.LICENSE.txt" <<'JS'
const fs = require("fs");
const path = require("path");
const [metaPath, pkg, version] = process.argv.slice(2);
const meta = JSON.parse(fs.readFileSync(metaPath, "utf8"));
const inputs = Object.values(meta.outputs)[0].inputs;
const libs = new Set();
for (const [file, info] of Object.entries(inputs)) {
  const m = /embedded-app-sdk\/output\/lib\/([^/]+)\//.exec(file);
  if (m && info.bytesInOutput > 0) libs.add(m[1]);
}
const licenceOf = (dir) => {
  const name = fs.readdirSync(dir).sort().find((f) => /^licen[cs]e/i.test(f));
  if (!name) throw new Error(`no licence file in ${dir}`);
  return fs.readFileSync(path.join(dir, name), "utf8").replace(/\r\n/g, "\n").trimEnd();
};
const sdkDir = path.join("node_modules", pkg);
const parts = [
  `${pkg} ${version} — licence of the Discord Embedded App SDK (MIT), bundled in discord-sdk.js`,
  "",
  licenceOf(sdkDir),
];
for (const lib of [...libs].sort()) {
  const dir = path.join("node_modules", lib);
  const info = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  parts.push(
    "",
    "-".repeat(78),
    `${lib} (${info.license}), a copy of which ${pkg} carries and discord-sdk.js includes;`,
    `licence text from the npm package ${lib} ${info.version}:`,
    "",
    licenceOf(dir),
  );
}
process.stdout.write(parts.join("\n") + "\n");
JS

sha256="$(sha256sum "$out/discord-sdk.js" | cut -d' ' -f1)"
node -e '
const [pkg, version, esbuild, sha256] = process.argv.slice(1);
process.stdout.write(JSON.stringify({ package: pkg, version, esbuild, sha256 }, null, 2) + "\n");
' "$package" "$version" "$esbuild_version" "$sha256" >"$out/discord-sdk.json"

echo "wrote $out/discord-sdk.js ($(wc -c <"$out/discord-sdk.js") bytes, sha256 $sha256)"
