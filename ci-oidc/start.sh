#!/usr/bin/env bash
# Start the CI OpenID Connect provider in the background on 127.0.0.1:PORT.
# Usage: ci-oidc/start.sh [PORT]   (default 9400)
# Prints the issuer (http://127.0.0.1:PORT/o) on stdout once discovery answers 200.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PORT="${1:-${LATCHKEY_OIDC_PORT:-9400}}"
export LATCHKEY_OIDC_PORT="$PORT"
export LATCHKEY_OIDC_WORKDIR="${LATCHKEY_OIDC_WORKDIR:-$HERE/.work}"
PIDFILE="$HERE/.server.pid"
PORTFILE="$HERE/.server.port"
LOG="$HERE/.server.log"
VENV_PY="$HERE/.venv/bin/python"
ISSUER="http://127.0.0.1:$PORT/o"
DISCOVERY="$ISSUER/.well-known/openid-configuration"

probe() {  # exit 0 when discovery answers 200 with the expected issuer
  "$VENV_PY" - "$DISCOVERY" "$ISSUER" <<'PY'
import json, sys, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=2) as r:
        ok = r.status == 200 and json.load(r).get("issuer") == sys.argv[2]
except Exception:
    ok = False
sys.exit(0 if ok else 1)
PY
}

if [ ! -x "$VENV_PY" ] || [ ! -f "$LATCHKEY_OIDC_WORKDIR/db.sqlite3" ]; then
  "$HERE/setup.sh" >&2
fi

if [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
  if [ "$(cat "$PORTFILE" 2>/dev/null)" = "$PORT" ] && probe; then
    echo "ci-oidc: already running (pid $(cat "$PIDFILE"))" >&2
    echo "$ISSUER"
    exit 0
  fi
  "$HERE/stop.sh" >&2
fi

cd "$HERE/project"
# setsid: own process group, detached from the caller's terminal/job control.
setsid "$VENV_PY" manage.py runserver "127.0.0.1:$PORT" --noreload --skip-checks \
  >"$LOG" 2>&1 </dev/null &
pid=$!
echo "$pid" >"$PIDFILE"
echo "$PORT" >"$PORTFILE"

deadline=$(( $(date +%s) + ${LATCHKEY_OIDC_START_TIMEOUT:-60} ))
until probe; do
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "ci-oidc: server exited during startup; log:" >&2
    tail -n 40 "$LOG" >&2 || true
    rm -f "$PIDFILE" "$PORTFILE"
    exit 1
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "ci-oidc: discovery at $DISCOVERY not ready in time; log:" >&2
    tail -n 40 "$LOG" >&2 || true
    "$HERE/stop.sh" >&2 || true
    exit 1
  fi
  sleep 0.3
done
echo "ci-oidc: running (pid $pid, log $LOG)" >&2
echo "$ISSUER"
