#!/usr/bin/env bash
# Older VS Code releases (1.105 among them) depend on @vscode/ripgrep, whose postinstall
# downloads ripgrep from GitHub's API; only the npm registry is reachable here. Its download
# step first looks in a cache, $TMPDIR/vscode-ripgrep-cache-<version>/ripgrep-<tag>-<target>.tar.gz,
# so this puts there a tarball of the rg binary that the registry package
# @vscode/ripgrep-universal carries. Does nothing when the VS Code does not use @vscode/ripgrep.
#   seed-ripgrep-cache.sh <code-server package folder>
set -euo pipefail
cs="$1"
shrinkwrap="$cs/lib/vscode/npm-shrinkwrap.json"
version="$(node -e 'const p=require(require("path").resolve(process.argv[1])).packages||{};const e=p["node_modules/@vscode/ripgrep"];process.stdout.write(e?e.version:"")' "$shrinkwrap")"
[[ -n "$version" ]] || { echo "seed-ripgrep-cache: no @vscode/ripgrep in $shrinkwrap"; exit 0; }
case "$(uname -m)" in
  x86_64) target=x86_64-unknown-linux-musl; universal=linux-x64 ;;
  aarch64 | arm64) target=aarch64-unknown-linux-musl; universal=linux-arm64 ;;
  *) echo "seed-ripgrep-cache: unsupported machine $(uname -m)"; exit 1 ;;
esac
work="$(mktemp -d "${TMPDIR:-/tmp}/ripgrep-seed.XXXXXX")"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "@vscode/ripgrep@$version" "@vscode/ripgrep-universal" >/dev/null)
tar xzf "$work"/vscode-ripgrep-[0-9]*.tgz -C "$work" package/lib/postinstall.js
tag="$(sed -n "s/^const VERSION = '\(.*\)';/\1/p" "$work/package/lib/postinstall.js")"
mkdir -p "$work/universal"
tar xzf "$work"/vscode-ripgrep-universal-*.tgz -C "$work/universal"
rg="$(find "$work/universal" -path "*$universal*" -name rg -type f | head -1)"
[[ -n "$tag" && -n "$rg" ]] || { echo "seed-ripgrep-cache: could not find the tag ($tag) or an rg for $universal"; exit 1; }
cache="${TMPDIR:-/tmp}/vscode-ripgrep-cache-$version"
mkdir -p "$cache" "$work/asset"
cp "$rg" "$work/asset/rg"
chmod +x "$work/asset/rg"
tar czf "$cache/ripgrep-$tag-$target.tar.gz" -C "$work/asset" rg
echo "seed-ripgrep-cache: $cache/ripgrep-$tag-$target.tar.gz from @vscode/ripgrep-universal ($universal)"
