#!/bin/sh
# hook-notify wrapper: the launcher "hook-notify install" writes for user-scope hooks, so that they
# keep working after node is upgraded or removed (nvm, fnm, volta, Homebrew) and when a client
# starts hooks with a short PATH. It never writes to stdout itself and never exits 2, because a
# hook that exits 2 on Stop keeps the agent from stopping. Run it with HOOK_NOTIFY_LAUNCHER=check
# to see which node and which hook-notify it would run (hook-notify doctor does).
node=''
script=''
# Where system package managers put node (Homebrew, the official installer, Linux, MacPorts).
system='/opt/homebrew/bin/node /usr/local/bin/node /usr/bin/node /opt/local/bin/node'

state=${XDG_STATE_HOME:-$HOME/.local/state}/hook-notify

# One line on stderr and one in the run log (`hook-notify log` shows it), then exit 0.
give_up() {
  printf 'hook-notify: %s\n' "$2" >&2
  text=$(printf '%s' "$2" | sed 's/\\/\\\\/g; s/"/\\"/g')
  now=$(date -u +%Y-%m-%dT%H:%M:%S.000Z 2>/dev/null)
  if mkdir -p "$state" 2>/dev/null; then
    printf '{"time":"%s","ms":0,"outcomes":[],"skipped":[],"issues":[],"error":{"code":"%s","message":"%s"}}\n' \
      "$now" "$1" "$text" >>"$state/log.ndjson" 2>/dev/null
  fi
  exit 0
}

# A node that runs and is 20.19 or later (the recorded one is trusted as it is).
usable() {
  [ -x "$1" ] && "$1" -e 'const [a, b] = process.versions.node.split(".").map(Number);
process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' >/dev/null 2>&1
}

find_node() {
  if [ -x "$node" ]; then
    printf '%s' "$node"
    return 0
  fi
  on_path=$(command -v node 2>/dev/null)
  nvm=${NVM_DIR:-$HOME/.nvm}
  fnm=${FNM_DIR:-$HOME/.local/share/fnm}
  for candidate in "$on_path" "$HOME/.volta/bin/node" "$fnm/aliases/default/bin/node" \
    "$HOME/.fnm/aliases/default/bin/node" "$HOME/Library/Application Support/fnm/aliases/default/bin/node" \
    "$HOME/.local/share/mise/shims/node" "$HOME/.asdf/shims/node" $system \
    "$nvm"/versions/node/v*/bin/node; do
    if [ -n "$candidate" ] && usable "$candidate"; then
      printf '%s' "$candidate"
      return 0
    fi
  done
  return 1
}

# Not filled in (the copy inside the package, which the Claude Code plugin runs): that package's own.
if [ -z "$script" ]; then
  script=$(dirname "$0")/../bin/hook-notify.cjs
fi
if [ ! -f "$script" ]; then
  on_path=$(command -v hook-notify 2>/dev/null)
  if [ -n "$on_path" ] && [ -f "$on_path" ]; then
    script=$on_path
  else
    give_up LAUNCHER_NO_PACKAGE "$script is gone and no hook-notify is on PATH, so this hook did nothing. Install it again: npm i -g hook-notify && hook-notify install"
  fi
fi
found=$(find_node) || give_up LAUNCHER_NO_NODE "no Node.js 20.19 or later found (looked at ${node:-the recorded node}, PATH, volta, fnm, mise, asdf, Homebrew, /usr/local/bin, /usr/bin, nvm), so this hook did nothing. Install Node.js, then run: hook-notify install"

if [ "${HOOK_NOTIFY_LAUNCHER:-}" = check ]; then
  printf 'node %s\nscript %s\n' "$found" "$script" >&2
  exit 0
fi
"$found" "$script" "$@"
code=$?
if [ "$code" -eq 2 ]; then
  exit 1
fi
exit "$code"
