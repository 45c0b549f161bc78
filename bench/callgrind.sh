#!/usr/bin/env bash
# Counts the instructions a page costs: runs the release server (it keeps
# its symbols, Cargo.toml) under valgrind's callgrind,
# signs up, loads the page a few times to warm up, then counts only N more
# requests of it. Instruction counts repeat from run to run where req/s on
# a shared machine does not (BENCHMARKS.md).
#
#   bench/callgrind.sh [PATH] [N]      defaults: / and 200
#
# Prints the total, the count per request and the 30 functions with the
# most instructions of their own; the full profile stays in
# $CALLGRIND_OUT (default /tmp/aivet-callgrind.out) for callgrind_annotate.
set -euo pipefail
cd "$(dirname "$0")/.."
path=${1:-/}
n=${2:-200}
bin=${CARGO_TARGET_DIR:-target}/release/aivet
out=${CALLGRIND_OUT:-/tmp/aivet-callgrind.out}
[ -x "$bin" ] || { echo "missing $bin: ./dev profile builds it" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is missing: ./dev profile installs it" >&2; exit 2; }

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
data=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$data"' EXIT
AIVET_LISTEN=127.0.0.1:$port AIVET_BASE_URL=$base AIVET_DATA_DIR=$data \
  AIVET_SESSION_SECRET=profile-secret-profile-secret-profile-0 \
  AIVET_SITE_ROOT=$PWD/target/site AIVET_LOG=warn AIVET_MAIL_FROM=aivet@aivet.test \
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out" "$bin" serve \
  >"$data/server.log" 2>&1 &
pid=$!
for _ in $(seq 600); do curl -sf -o /dev/null "$base/health" && break; sleep 0.1; done
curl -sf -o /dev/null -c "$data/jar" -H "origin: $base" \
  --data-urlencode email=profile@example.com --data-urlencode "password=profile passphrase 1" \
  --data-urlencode name=Profile --data-urlencode org_name=Profile "$base/api/sign_up"
get() { curl -sf -o /dev/null -b "$data/jar" "$base$path"; }
for _ in 1 2 3 4 5; do get; done
callgrind_control -i on "$pid" >/dev/null 2>&1
for _ in $(seq "$n"); do get; done
callgrind_control -i off "$pid" >/dev/null 2>&1
kill "$pid"; wait "$pid" 2>/dev/null || true
total=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
echo "$n requests of $path: $total instructions, $((total / n)) per request"
callgrind_annotate --inclusive=no "$out" 2>/dev/null | sed -n '/^Ir  *file:function/,$p' | sed -n '3,32p' | cut -c1-160
