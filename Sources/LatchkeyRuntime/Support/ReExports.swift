// `LatchkeyDuration` lives in LatchkeyPlatform (below the generator and the runtime alike) and is part of the
// runtime's public API (leeways, timeouts, clocks), so the runtime re-exports it.
@_exported import struct LatchkeyPlatform.LatchkeyDuration
