import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Monotonic time in nanoseconds.
enum Clock {
    @inline(__always)
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Seconds between two `now()` readings.
    static func seconds(_ start: UInt64, _ end: UInt64) -> Double { Double(end &- start) / 1e9 }
}

/// Process memory, read from `/proc/self/status` (Linux) or `getrusage` elsewhere.
enum Memory {
    /// Whether `/proc/self/clear_refs` accepted a peak reset (Linux ≥ 4.0, owner of the process).
    static let canResetPeak: Bool = probeReset()

    private static func probeReset() -> Bool {
        guard FileManager.default.fileExists(atPath: "/proc/self/clear_refs") else { return false }
        return writeClearRefs()
    }

    private static func writeClearRefs() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let five: [UInt8] = [0x35]  // "5": reset the high-water mark to the current RSS
        return five.withUnsafeBytes { write(fd, $0.baseAddress, 1) } == 1
    }

    /// Resets the peak RSS to the current RSS. Returns `false` when the kernel does not allow it.
    @discardableResult
    static func resetPeak() -> Bool {
        guard canResetPeak else { return false }
        return writeClearRefs()
    }

    /// A field of `/proc/self/status` in KiB (`VmRSS`, `VmHWM`).
    static func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
            return Int(digits)
        }
        return nil
    }

    /// The current resident set size in KiB.
    static func residentKiB() -> Int { status("VmRSS") ?? peakKiB() }

    /// The peak resident set size in KiB (since the last reset, when resets work).
    static func peakKiB() -> Int {
        if let hwm = status("VmHWM") { return hwm }
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        #if canImport(Darwin)
            return Int(usage.ru_maxrss) / 1024
        #else
            return Int(usage.ru_maxrss)
        #endif
    }

    /// Runs `body`, returning its result and how far the peak RSS rose above the RSS at the start, in KiB.
    /// Without peak resets the figure is the rise of the process-wide, monotonic peak (0 when an earlier
    /// phase already peaked higher).
    static func measurePeak<T>(_ body: () throws -> T) rethrows -> (T, Int) {
        let startPeak: Int
        let base: Int
        if resetPeak() {
            base = residentKiB()
            startPeak = base
        } else {
            base = residentKiB()
            startPeak = peakKiB()
        }
        let value = try body()
        let end = peakKiB()
        return (value, max(0, end - max(base, startPeak)))
    }
}

/// Order statistics.
enum Stats {
    static func median(_ values: [Double]) -> Double { percentile(values, 50) }

    /// Nearest-rank percentile (p in 0...100).
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

/// Keeps the optimizer from deleting work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Writes bytes to a file descriptor (the generator's and the floor's output go to `/dev/null`).
final class ByteSink {
    let descriptor: Int32
    private(set) var written = 0

    init(path: String = "/dev/null") {
        descriptor = open(path, O_WRONLY)
        precondition(descriptor >= 0, "cannot open \(path)")
    }

    deinit { close(descriptor) }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in write(UnsafeRawBufferPointer(buffer)) }
    }

    func write(_ buffer: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < buffer.count {
            let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count <= 0 { break }
            offset += count
        }
        written += offset
    }
}

// MARK: - Formatting

enum Format {
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "-" }
        return String(format: "%.\(digits)f", value)
    }

    /// Thousands separators: 12,345.
    static func int(_ value: Int) -> String {
        let digits = String(abs(value))
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }

    /// A duration in seconds, in the unit that reads best.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "-" }
        if seconds >= 1 { return fixed(seconds, 2) + " s" }
        if seconds >= 1e-3 { return fixed(seconds * 1e3, 2) + " ms" }
        if seconds >= 1e-6 { return fixed(seconds * 1e6, 1) + " µs" }
        return fixed(seconds * 1e9, 0) + " ns"
    }

    static func rate(_ perSecond: Double) -> String {
        guard perSecond.isFinite else { return "-" }
        if perSecond >= 1e6 { return fixed(perSecond / 1e6, 2) + " M/s" }
        if perSecond >= 1e3 { return fixed(perSecond / 1e3, 1) + " k/s" }
        return fixed(perSecond, 0) + " /s"
    }

    static func mebibytes(kib: Int) -> String { fixed(Double(kib) / 1024, 1) + " MiB" }

    static func ratio(_ value: Double) -> String { fixed(value, 2) + "x" }
}
