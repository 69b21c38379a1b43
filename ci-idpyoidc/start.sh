#!/usr/bin/env bash
# Start the CI idpyoidc provider in the background on 127.0.0.1:PORT (0 or nothing: an ephemeral port).
# Usage: ci-idpyoidc/start.sh [PORT]
# Prints the issuer (http://127.0.0.1:PORT) on stdout once discovery answers 200; everything else on stderr.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PORT="${1:-0}"
WORKDIR="${LATCHKEY_IDPYOIDC_WORKDIR:-$HERE/.work}"
PIDFILE="$HERE/.server.pid"
ISSUERFILE="$HERE/.server.issuer"
LOG="$HERE/.server.log"
VENV_PY="$HERE/.venv/bin/python"

probe() {  # exit 0 when discovery at $1 answers 200 with issuer $1
  "$VENV_PY" - "$1" <<'PY'
import json, sys, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1] + "/.well-known/openid-configuration", timeout=2) as r:
        ok = r.status == 200 and json.load(r).get("issuer") == sys.argv[1]
except Exception:
    ok = False
sys.exit(0 if ok else 1)
PY
}

[ -x "$VENV_PY" ] || "$HERE/setup.sh" >&2

if [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
  running="$(cat "$ISSUERFILE" 2>/dev/null || true)"
  if [ -n "$running" ] && { [ "$PORT" = 0 ] || [ "${running##*:}" = "$PORT" ]; } && probe "$running"; then
    echo "ci-idpyoidc: already running (pid $(cat "$PIDFILE"))" >&2
    echo "$running"
    exit 0
  fi
  "$HERE/stop.sh" >&2
fi

rm -f "$ISSUERFILE"
mkdir -p "$WORKDIR"
# setsid: own process group, detached from the caller's terminal/job control. The server prints its issuer
# on stdout once it listens (the port is known then, also an ephemeral one).
setsid "$VENV_PY" "$HERE/server.py" "$PORT" "$WORKDIR" >"$ISSUERFILE.tmp" 2>"$LOG" </dev/null &
pid=$!
echo "$pid" >"$PIDFILE"

deadline=$(( $(date +%s) + ${LATCHKEY_IDPYOIDC_START_TIMEOUT:-30} ))
while :; do
  issuer="$(head -n 1 "$ISSUERFILE.tmp" 2>/dev/null || true)"
  if [ -n "$issuer" ] && probe "$issuer"; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "ci-idpyoidc: server exited during startup; log:" >&2
    tail -n 40 "$LOG" >&2 || true
    rm -f "$PIDFILE"
    exit 1
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "ci-idpyoidc: discovery not ready in time; log:" >&2
    tail -n 40 "$LOG" >&2 || true
    "$HERE/stop.sh" >&2 || true
    exit 1
  fi
  sleep 0.2
done
echo "$issuer" >"$ISSUERFILE"
echo "ci-idpyoidc: running (pid $pid, log $LOG)" >&2
echo "$issuer"
