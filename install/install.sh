#!/bin/sh
# Installs hook-notify with npm, then adds it to your coding agent's hooks.
#   sh install.sh                        every client found in your home folder
#   sh install.sh --client droid         one client; any "hook-notify install" flag works
# Set HOOK_NOTIFY_PACKAGE to install another version or a local tarball.
set -eu

package=${HOOK_NOTIFY_PACKAGE:-hook-notify}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "hook-notify needs Node.js 20.19 or newer with npm. Install Node.js, then run this again." >&2
  exit 1
fi

# 20.19 is the oldest Node.js the package supports (package.json "engines").
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; then
  echo "hook-notify needs Node.js 20.19 or newer; this is $(node --version)." >&2
  exit 1
fi

echo "Installing $package with npm (global)..."
if ! npm install --global "$package"; then
  echo "npm could not install $package globally. If it is a permissions problem, set an npm prefix" >&2
  echo "you own (npm config set prefix ~/.local), add ~/.local/bin to PATH, and run this again." >&2
  exit 1
fi

bin=$(command -v hook-notify 2>/dev/null || true)
if [ -z "$bin" ]; then
  bin="$(npm prefix --global)/bin/hook-notify"
fi
if [ ! -x "$bin" ]; then
  echo "hook-notify was installed but is not on PATH. Add \"$(npm prefix --global)/bin\" to PATH." >&2
  exit 1
fi

# Piped into sh (curl ... | sh), stdin is the script: install asks on the terminal instead.
if [ ! -t 0 ] && [ -t 1 ] && { : </dev/tty; } 2>/dev/null; then
  exec "$bin" install "$@" </dev/tty
fi
exec "$bin" install "$@"
