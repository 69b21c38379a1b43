import FuzzSupport
import LatchkeyDescriptor

// Fuzzes the descriptor pipeline of `latchkey-gen`: JSON scanning and tree building, decoding into the
// model, reference checks and validation, all through DescriptorLoader.load(bytes:fileName:).
//
// Invariants (a violation traps and libFuzzer keeps the input):
// - load never crashes, whatever the bytes;
// - every diagnostic has a location inside the file: line in 1...(line breaks + 1), column in
//   1...(bytes + 1);
// - a formatted diagnostic is one line;
// - no descriptor comes back without an error diagnostic explaining why, and none comes back with one;
// - loading is deterministic, and a valid descriptor loaded under its own file name is the same descriptor.

/// libFuzzer's entry point: runs one input.
/// - Parameters:
///   - data: The input's bytes.
///   - size: How many.
/// - Returns: 0 (inputs are never rejected).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    let result = DescriptorLoader.load(bytes: bytes, fileName: nil)

    let lineBreaks = bytes.reduce(0) { $0 + ($1 == 0x0A || $1 == 0x0D ? 1 : 0) }
    for diagnostic in result.diagnostics {
        let location = diagnostic.location
        Fuzz.check(
            location.line >= 1 && location.line <= lineBreaks + 1,
            "diagnostic line \(location.line) outside 1...\(lineBreaks + 1): \(diagnostic.formatted(file: "fuzz.json"))"
        )
        Fuzz.check(
            location.column >= 1 && location.column <= bytes.count + 1,
            "diagnostic column \(location.column) outside 1...\(bytes.count + 1): \(diagnostic.formatted(file: "fuzz.json"))"
        )
        Fuzz.check(
            !diagnostic.formatted(file: "fuzz.json").contains(where: \.isNewline),
            "a formatted diagnostic spans several lines: \(diagnostic.message)")
    }
    if result.descriptor == nil {
        Fuzz.check(result.hasErrors, "no descriptor and no error: \(result.diagnostics.map(\.message))")
    } else {
        Fuzz.check(!result.hasErrors, "a descriptor despite errors: \(result.diagnostics.map(\.message))")
    }

    // Loading again under the descriptor's own file name (or any name when it is invalid) must agree.
    let fileName = result.descriptor.map { "\($0.name).json" } ?? "fuzz.json"
    let again = DescriptorLoader.load(bytes: bytes, fileName: fileName)
    if let descriptor = result.descriptor {
        Fuzz.check(again.descriptor == descriptor, "loading under \(fileName) changed the descriptor")
        Fuzz.check(
            again.diagnostics == result.diagnostics, "loading under \(fileName) changed the diagnostics")
    } else {
        Fuzz.check(again.descriptor == nil, "an invalid descriptor became valid under another file name")
    }
    return 0
}
