#!/bin/sh
# hook-notify wrapper, written by "hook-notify install --scope project". Safe to commit:
# it runs hook-notify when this machine has it (on PATH, or HOOK_NOTIFY_BIN) and otherwise
# exits 0 without a word. It never writes to stdout itself and never exits 2, because a
# hook that exits 2 on Stop keeps the agent from stopping.
bin=${HOOK_NOTIFY_BIN:-}
if [ -z "$bin" ]; then
  bin=$(command -v hook-notify 2>/dev/null) || exit 0
fi
if [ ! -x "$bin" ]; then
  exit 0
fi
"$bin" "$@"
code=$?
if [ "$code" -eq 2 ]; then
  exit 1
fi
exit "$code"
