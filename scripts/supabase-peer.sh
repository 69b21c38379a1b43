#!/usr/bin/env bash
# supabase-swift's Auth beside Latchkey's SupabaseClient, against one loopback GoTrue-shaped server.
#
#   bash scripts/supabase-peer.sh            # build both (release), 5 rounds, print one table
#   ROUNDS=9 SAMPLES=300 bash scripts/supabase-peer.sh
#
# supabase-swift and its dependencies are never dependencies of Latchkey. They come from local mirrors
# ($LATCHKEY_PEER_MIRRORS, default /work/.mirror/<owner>+<name>/repo, bare git repositories); the script checks
# out a worktree of each under $LATCHKEY_PEER_BUILD (default /work/peer-build, outside the repository) and builds
# a throwaway package there that compiles supabase-swift's Helpers and Auth targets against path dependencies.
# Without the mirrors it prints why and exits 0.
#
# The server is `latchkey-bench serve-gotrue` (its own process); each side is its own process
# (`supabase-peer-bench` and `latchkey-bench supabase-side`), run alternately ROUNDS times. Each prints one
# median per operation per round; the table shows the median over the rounds, both sides, and the ratio.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
mirrors=${LATCHKEY_PEER_MIRRORS:-/work/.mirror}
build=${LATCHKEY_PEER_BUILD:-/work/peer-build}
rounds=${ROUNDS:-5}
samples=${SAMPLES:-200}

skip() {
  echo "supabase-peer: skipped: $*"
  exit 0
}

# owner+name, worktree directory, revision. supabase-swift at the snapshot's HEAD; the dependencies at the newest
# release inside supabase-swift's Package.swift ranges. swift-docc-plugin (declared by swift-concurrency-extras on
# Linux) is only resolved, through a mirror to its bare repository, and never built.
repos=(
  "supabase+supabase-swift supabase-swift HEAD"
  "pointfreeco+swift-concurrency-extras swift-concurrency-extras 1.4.0"
  "apple+swift-http-types swift-http-types 1.6.0"
  "apple+swift-crypto swift-crypto 4.5.0"
  "apple+swift-asn1 swift-asn1 1.7.0"
  "apple+swift-log swift-log 1.14.0"
  "pointfreeco+xctest-dynamic-overlay xctest-dynamic-overlay 1.2.2"
)
command -v git >/dev/null || skip "git is not installed"
command -v swift >/dev/null || skip "swift is not installed"
for entry in "${repos[@]}" "apple+swift-docc-plugin - -"; do
  read -r mirror _ _ <<<"$entry"
  [[ -d "$mirrors/$mirror/repo" ]] ||
    skip "no mirror of ${mirror/+//} at $mirrors/$mirror/repo (fetch it first: this machine reaches no GitHub)"
done

# The snapshots leave out some large files (test vectors): check out every top-level entry but Tests/, which no
# build here needs.
mkdir -p "$build"
for entry in "${repos[@]}"; do
  read -r mirror directory revision <<<"$entry"
  if [[ ! -e "$build/$directory/.git" ]]; then
    git -C "$mirrors/$mirror/repo" worktree add --no-checkout --detach "$build/$directory" "$revision" >/dev/null
    git -C "$build/$directory" ls-tree --name-only HEAD | grep -vx Tests |
      xargs git -C "$build/$directory" checkout HEAD --
  fi
done
echo "supabase-peer: supabase-swift $(git -C "$build/supabase-swift" rev-parse --short HEAD)," \
  "worktrees in $build" >&2

# The throwaway package: supabase-swift's Helpers and Auth sources (copied, mtimes kept, so rebuilds are
# incremental), the dependencies Auth really uses, and the peer's bench executable.
package="$build/SupabasePeer"
mkdir -p "$package/Sources/supabase-peer-bench"
for target in Helpers Auth; do
  rm -rf "$package/Sources/$target"
  cp -Rp "$build/supabase-swift/Sources/$target" "$package/Sources/$target"
done
cp -p "$root/scripts/supabase-peer/main.swift" "$package/Sources/supabase-peer-bench/main.swift"
cat >"$package/Package.swift.new" <<'SWIFT'
// swift-tools-version:6.1
// Written by Latchkey's scripts/supabase-peer.sh: supabase-swift's Auth product, built from local worktrees.
import PackageDescription

let features: [SwiftSetting] = [
  // supabase-swift's own settings for every target.
  .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("ImmutableWeakCaptures"),
  .enableUpcomingFeature("InferIsolatedConformances"), .enableUpcomingFeature("InternalImportsByDefault"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
  name: "SupabasePeer",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(path: "../swift-concurrency-extras"),
    .package(path: "../swift-http-types"),
    .package(path: "../swift-crypto"),
    .package(path: "../swift-log"),
    .package(path: "../xctest-dynamic-overlay"),
  ],
  targets: [
    .target(
      name: "Helpers",
      dependencies: [
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "XCTestDynamicOverlay", package: "xctest-dynamic-overlay"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ], swiftSettings: features),
    .target(
      name: "Auth",
      dependencies: [
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        .product(name: "Logging", package: "swift-log"),
        "Helpers",
      ], swiftSettings: features),
    .executableTarget(name: "supabase-peer-bench", dependencies: ["Auth"]),
  ]
)
SWIFT
cmp -s "$package/Package.swift.new" "$package/Package.swift" 2>/dev/null ||
  mv "$package/Package.swift.new" "$package/Package.swift"
rm -f "$package/Package.swift.new"
# swift-concurrency-extras declares swift-docc-plugin on Linux: resolve it from its mirror, offline.
(cd "$package" && swift package config set-mirror \
  --original https://github.com/apple/swift-docc-plugin --mirror "$mirrors/apple+swift-docc-plugin/repo" &&
  swift package config set-mirror \
    --original https://github.com/apple/swift-docc-plugin.git --mirror "$mirrors/apple+swift-docc-plugin/repo") \
  >/dev/null 2>&1 || true

echo "supabase-peer: building supabase-swift's Auth (release; the first build compiles BoringSSL: minutes)" >&2
export SWIFTCI_USE_LOCAL_DEPS=1 # swift-crypto takes swift-asn1 from ../swift-asn1
if ! (cd "$package" && swift build -c release --product supabase-peer-bench) >"$build/peer-build.log" 2>&1; then
  tail -20 "$build/peer-build.log" >&2
  skip "supabase-swift did not build (log: $build/peer-build.log)"
fi
peer="$(cd "$package" && swift build -c release --show-bin-path)/supabase-peer-bench"

echo "supabase-peer: building latchkey-bench (release)" >&2
(cd "$root" && swift build -c release --product latchkey-bench) >"$build/latchkey-build.log" 2>&1 || {
  tail -20 "$build/latchkey-build.log" >&2
  echo "supabase-peer: latchkey-bench did not build" >&2
  exit 1
}
ours="$(cd "$root" && swift build -c release --show-bin-path)/latchkey-bench"

# The server, in its own process: it prints its base URL on the first line.
fifo=$(mktemp -u)
mkfifo "$fifo"
"$ours" serve-gotrue >"$fifo" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$fifo"' EXIT
read -r url <"$fifo"
echo "supabase-peer: GoTrue-shaped server at $url; $rounds rounds of $samples samples per side" >&2

results=$(mktemp)
for ((round = 1; round <= rounds; round++)); do
  # Alternate which side goes first.
  if ((round % 2)); then order="peer ours"; else order="ours peer"; fi
  for side in $order; do
    if [[ $side == peer ]]; then
      "$peer" --url "$url" --samples "$samples" | sed "s/^/supabase-swift /" >>"$results"
    else
      "$ours" supabase-side --url "$url" --samples "$samples" | sed "s/^/Latchkey /" >>"$results"
    fi
  done
done

# Lines: SIDE OPERATION VALUE UNIT. One table: median over the rounds per side, and the ratio.
awk -v rounds="$rounds" -v samples="$samples" '
function median(list,   n, values, i, j, t) {
  n = split(list, values, " ")
  if (n == 0) return ""
  for (i = 2; i <= n; i++) for (j = i; j > 1 && values[j - 1] + 0 > values[j] + 0; j--) {
    t = values[j]; values[j] = values[j - 1]; values[j - 1] = t
  }
  return n % 2 ? values[(n + 1) / 2] : (values[n / 2] + values[n / 2 + 1]) / 2
}
function cell(value, unit) { return value == "" ? sprintf("%16s", "-") : sprintf("%12.4f %-3s", value, unit) }
function ratio(ours, peer) {
  if (ours == "" || peer == "" || peer + 0 == 0) return "-"
  return ours / peer >= 0.01 ? sprintf("%.2fx", ours / peer) : sprintf("1/%.0f", peer / ours)
}
{
  key = $2
  if (!(key in seen)) { seen[key] = 1; order[++count] = key; unit[key] = ($4 == "requests" ? "req" : $4) }
  if ($1 == "Latchkey") ours[key] = ours[key] " " $3; else peer[key] = peer[key] " " $3
}
END {
  printf "%-36s %16s %16s %13s\n", "operation (median of " rounds " rounds)", "supabase-swift", "Latchkey", "Latchkey/peer"
  printf "%-36s %16s %16s %13s\n", "------------------------------------", "----------------", "----------------", "-------------"
  for (i = 1; i <= count; i++) {
    key = order[i]; p = median(peer[key]); o = median(ours[key])
    printf "%-36s %s %s %13s\n", key, cell(p, unit[key]), cell(o, unit[key]), ratio(o, p)
  }
  print "  password-sign-in, forced-refresh: median of " samples " calls per round after 10 warm-up calls (one connection"
  print "  each); supabase-swift fetches with an ephemeral URLSession configured as URLSessionHTTPTransport configures"
  print "  its own (cookies, cache, credential storage off); /URLSession.shared rows: its default fetch."
  print "  session-getter: supabase-swift AuthClient.session vs SupabaseClient.validAccessToken() on a fresh session."
  print "  100-callers-expired: 100 concurrent session / validAccessToken() calls on an expired session, wall time;"
  print "  refresh-requests: token requests the server saw for those 100 callers (must be 1 on both sides)."
}' "$results"
rm -f "$results"
