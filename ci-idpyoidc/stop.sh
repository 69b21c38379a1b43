#!/usr/bin/env bash
# Stop the server started by start.sh (PID in ci-idpyoidc/.server.pid). Safe to re-run.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PIDFILE="$HERE/.server.pid"
[ -f "$PIDFILE" ] || { echo "ci-idpyoidc: not running"; exit 0; }
pid="$(cat "$PIDFILE")"
if kill -0 "$pid" 2>/dev/null; then
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null; fi
  echo "ci-idpyoidc: stopped (pid $pid)"
else
  echo "ci-idpyoidc: stale pid file (pid $pid not running)"
fi
rm -f "$PIDFILE" "$HERE/.server.issuer" "$HERE/.server.issuer.tmp"
