#!/bin/bash
# Builds the stand-in Apple SDK modules (scripts/apple/standins/<Module>) for one platform.
# Usage: build-standins.sh macos|ios|tvos|watchos|visionos TARGET OUT   (after the shared apple-typecheck tool has filled $WORK)
# Env: TC (toolchain usr dir), WORK (the shared tool's cache for this platform, WORK/<platform> of the other scripts:
#      $WORK/res, $WORK/mods/<sdk dir> and $WORK/mcache), SDK (the -sdk directory, default $WORK/sdk; visionOS's
#      holds an SDKSettings.json).
# OUT gets the stand-in modules plus a link to FoundationEssentials and nothing else, so `canImport` is true
# exactly for the modules that exist on that platform and that we declare.
set -euo pipefail
PLAT=$1 TGT=$2 OUT=$3
TC=${TC:-/opt/swift/usr}; WORK=${WORK:-/tmp/appletc-cache}; SDK=${SDK:-$WORK/sdk}
HERE=$(cd "$(dirname "$0")" && pwd); SRC="$HERE/standins"
case $PLAT in
  macos) SDKDIR=macosx; UI=AppKit;;
  ios) SDKDIR=iphonesimulator; UI=UIKit;;
  tvos) SDKDIR=appletvsimulator; UI=UIKit;;
  # watchOS has neither UIKit nor AppKit (WatchKit, which we do not declare, is its UI framework besides SwiftUI).
  watchos) SDKDIR=watchsimulator; UI=;;
  visionos) SDKDIR=xrsimulator; UI=UIKit;;
  *) echo "unknown platform $PLAT" >&2; exit 2;;
esac
export PATH="$TC/bin:$PATH"
rm -rf "$OUT"; mkdir -p "$OUT" "$WORK/mcache"
ln -s "$WORK/mods/$SDKDIR/FoundationEssentials.swiftmodule" "$OUT/FoundationEssentials.swiftmodule"
for m in ObjectiveC CoreFoundation Darwin Dispatch Foundation Security CryptoKit Combine $UI SwiftUI AuthenticationServices \
    _AuthenticationServices_SwiftUI; do
  swiftc -frontend -emit-module -target "$TGT" -resource-dir "$WORK/res" -sdk "$SDK" \
    -module-cache-path "$WORK/mcache" -I "$OUT" -swift-version 6 -parse-as-library -module-name "$m" \
    -disable-objc-interop -o "$OUT/$m.swiftmodule" "$SRC/$m"/*.swift 2>&1 | grep -v 'SDKSettings.json' || true
  [ -f "$OUT/$m.swiftmodule" ] || { echo "build-standins: $m failed for $PLAT" >&2; exit 4; }
done
# AuthenticationServices + SwiftUI in one file brings in the overlay, as in Apple's SDK.
mkdir -p "$OUT/AuthenticationServices.swiftcrossimport"
printf -- '---\nversion: 1\nmodules:\n  - name: _AuthenticationServices_SwiftUI\n' \
  > "$OUT/AuthenticationServices.swiftcrossimport/SwiftUI.swiftoverlay"
