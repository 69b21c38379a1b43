import Foundation
import LatchkeyDescriptor
import LatchkeyGenerator

/// Section 1: the generator pipeline (parse, decode, validate, collision check, render, write) over
/// N synthetic descriptors, beside the floor: `JSONSerialization` over the same bytes plus writing the
/// same number of output bytes.
struct GeneratorBench {
    /// One synthetic descriptor file, in memory.
    struct Input: Sendable {
        var fileName: String
        var bytes: [UInt8]
    }

    struct Run {
        var sizes: [Int]
        var seconds: Double
        var peakKiB: Int
        var outputBytes: Int
        var repetitions: Int
    }

    let seeds: [(name: String, text: String)]
    let counts: [Int]
    /// Stop growing N when the next run is predicted to take longer than this (seconds).
    let budgetSeconds: Double

    /// Loads `oidc.json` and `supabase.json` from the descriptors directory.
    static func loadSeeds(directory: String) throws -> [(name: String, text: String)] {
        try ["oidc", "supabase"].map { name in
            let path = (directory as NSString).appendingPathComponent(name + ".json")
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
            else { throw BenchError("cannot read \(path) (pass --descriptors DIR)") }
            return (name, text)
        }
    }

    /// Descriptor `index`, derived from a seed with its names replaced (name, swiftName, displayName).
    static func synthesize(_ seed: (name: String, text: String), index: Int) throws -> Input {
        let name = "\(seed.name)-bench-\(index)"
        let swiftName = seed.name.prefix(1).uppercased() + seed.name.dropFirst() + "Bench\(index)"
        var text = seed.text
        func replaceFirst(_ old: String, _ new: String) throws {
            guard let range = text.range(of: old) else { throw BenchError("seed \(seed.name): no \(old)") }
            text.replaceSubrange(range, with: new)
        }
        try replaceFirst("\"name\": \"\(seed.name)\"", "\"name\": \"\(name)\"")
        if let range = text.range(of: #""swiftName": ""#) {
            let valueStart = range.upperBound
            guard let valueEnd = text[valueStart...].firstIndex(of: "\"") else { throw BenchError("bad swiftName") }
            text.replaceSubrange(valueStart..<valueEnd, with: swiftName)
        }
        if let range = text.range(of: #""displayName": ""#) {
            let valueStart = range.upperBound
            guard let valueEnd = text[valueStart...].firstIndex(of: "\"") else { throw BenchError("bad displayName") }
            text.insert(contentsOf: " \(index)", at: valueEnd)
        }
        return Input(fileName: name + ".json", bytes: Array(text.utf8))
    }

    func run() throws -> SectionResult {
        let maxCount = counts.max() ?? 0
        var inputs: [Input] = []
        inputs.reserveCapacity(maxCount)
        for index in 0..<maxCount {
            inputs.append(try Self.synthesize(seeds[index % seeds.count], index: index))
        }
        let averageInput = inputs.isEmpty ? 0 : inputs.prefix(2).map(\.bytes.count).reduce(0, +) / min(2, inputs.count)

        // Warm-up: fault in the code and the templates once, outside the measurements.
        _ = try pipeline(Array(inputs.prefix(2)), sink: ByteSink())
        _ = try floorRun(
            Array(inputs.prefix(2)), outputSizes: Array(repeating: 1, count: min(2, inputs.count)), sink: ByteSink())

        var table = Table(
            "Generator: N synthetic descriptors (oidc.json / supabase.json renamed), parse + validate + render + write",
            [
                ("N", "descriptors", true), ("wall", "seconds", true), ("per descriptor", "secondsPerDescriptor", true),
                ("descriptors/s", "descriptorsPerSecond", true), ("peak Δ", "peakDeltaKiB", true),
                ("output", "outputBytes", true), ("floor wall", "floorSeconds", true),
                ("floor peak Δ", "floorPeakDeltaKiB", true), ("ratio", "ratioToFloor", true),
                ("runs", "repetitions", true),
            ])
        var perDescriptor: [Int: Double] = [:]
        var ratios: [Int: Double] = [:]
        var wall: [Int: Double] = [:]
        var capped: [(asked: Int, ran: Int?)] = []
        var lastCost = 0.0  // generator + floor seconds per descriptor at the last N
        for asked in counts.sorted() {
            var count = asked
            if lastCost * Double(count) > budgetSeconds {
                // Cap: the largest multiple of the last N's order of magnitude that fits the budget.
                let fits = Int(budgetSeconds / lastCost)
                let step = max(1, Int(pow(10, floor(log10(Double(max(fits, 1)))))))
                let ran = fits / step * step
                let previous = perDescriptor.keys.max() ?? 0
                capped.append((asked, ran > previous ? ran : nil))
                guard ran > previous else { continue }
                count = ran
            }
            let slice = Array(inputs.prefix(count))
            let generated = try measure(slice) { sink in try pipeline(slice, sink: sink) }
            let floored = try measure(slice) { sink in try floorRun(slice, outputSizes: generated.sizes, sink: sink) }
            let per = generated.seconds / Double(count)
            lastCost = (generated.seconds + floored.seconds) / Double(count)
            perDescriptor[count] = per
            wall[count] = generated.seconds
            let ratio = generated.seconds / floored.seconds
            ratios[count] = ratio
            let label = count == asked ? Format.int(count) : "\(Format.int(count)) (capped)"
            table.add([
                Cell(label, .int(count)), .seconds(generated.seconds), .seconds(per),
                .rate(Double(count) / generated.seconds),
                .kib(generated.peakKiB),
                Cell(Format.fixed(Double(generated.outputBytes) / 1_048_576, 1) + " MiB", .int(generated.outputBytes)),
                .seconds(floored.seconds), .kib(floored.peakKiB), .ratio(ratio), .int(generated.repetitions),
            ])
        }
        table.notes = [
            "Inputs alternate oidc.json (\(seeds[0].text.utf8.count) B) and supabase.json (\(seeds[1].text.utf8.count) B), mean ≈ \(averageInput) B;"
                + " built in memory before timing. Output goes to /dev/null.",
            "Pipeline = Generator(templates: BuiltInTemplates.all) + DescriptorLoader.load(bytes:fileName:) for each"
                + " + DescriptorLoader.checkCollisions + Generator.render + write, as latchkey-gen generate does.",
            "Floor = JSONSerialization.jsonObject over the same bytes + writing the same number of output bytes to /dev/null.",
            "wall = median of `runs` repetitions (at least 3, small N until ≈0.3 s of work; once when a run takes over 2 s).",
            Memory.canResetPeak
                ? "peak Δ = VmHWM − VmRSS at the start of the first repetition, the peak reset through /proc/self/clear_refs before each."
                : "peak Δ = rise of the process-wide peak RSS (getrusage/VmHWM, monotonic: later, larger N only show what exceeds earlier peaks).",
        ]
        for cap in capped {
            table.notes.append(
                "N = \(Format.int(cap.asked)) was predicted to take over the \(Int(budgetSeconds)) s generator budget"
                    + (cap.ran.map { "; capped to N = \(Format.int($0))" } ?? "; skipped")
                    + " (change with --generator-budget S or --max-descriptors N).")
        }

        let stages = try stageBreakdown(Array(inputs.prefix(min(100, maxCount))))

        var targets: [TargetResult] = []
        if let seconds = wall[1000] {
            targets.append(.check("generator 1,000 descriptors < 1 s (release)", seconds < 1, Format.duration(seconds)))
        } else {
            targets.append(
                TargetResult(
                    name: "generator 1,000 descriptors < 1 s (release)", outcome: .skipped, detail: "N = 1,000 not run")
            )
        }
        if let largest = perDescriptor.keys.max(), let last = perDescriptor[largest],
            let base = perDescriptor.filter({ $0.key >= 100 && $0.key < largest }).map(\.value).min()
        {
            let factor = last / base
            targets.append(
                .check(
                    "generator cost linear (per-descriptor cost at the largest N, \(Format.int(largest)), ≤ 1.5x the best at 100 ≤ N < \(Format.int(largest)))",
                    factor <= 1.5, Format.ratio(factor)))
        } else {
            targets.append(
                TargetResult(name: "generator cost linear", outcome: .skipped, detail: "needs two sizes ≥ 100"))
        }
        let measured = ratios.filter { $0.key >= 10 }
        if let worst = measured.max(by: { $0.value < $1.value }) {
            targets.append(
                .check(
                    "generator ratio to floor < 10 (every N ≥ 10)", worst.value < 10,
                    "worst \(Format.ratio(worst.value)) at N = \(Format.int(worst.key))"))
        }
        #if DEBUG
            targets.append(
                TargetResult(
                    name: "release build", outcome: .missed, detail: "this is a debug build: run with -c release"))
        #endif
        return SectionResult(key: "generator", tables: [table, stages], targets: targets)
    }

    /// Where the pipeline's time goes, stage by stage, over the same inputs.
    private func stageBreakdown(_ inputs: [Input]) throws -> Table {
        let sink = ByteSink()
        var start = Clock.now()
        let generator = try Generator(templates: BuiltInTemplates.all)
        let setup = Clock.seconds(start, Clock.now())
        var parse = 0.0
        var load = 0.0
        var loaded: [(path: String, descriptor: Descriptor)] = []
        for input in inputs {
            start = Clock.now()
            blackHole(JSONParser.parse(input.bytes))
            parse += Clock.seconds(start, Clock.now())
            start = Clock.now()
            guard let descriptor = DescriptorLoader.load(bytes: input.bytes, fileName: input.fileName).descriptor else {
                throw BenchError("synthetic descriptor \(input.fileName) is invalid")
            }
            load += Clock.seconds(start, Clock.now())
            loaded.append((input.fileName, descriptor))
        }
        start = Clock.now()
        blackHole(DescriptorLoader.checkCollisions(loaded))
        let collisions = Clock.seconds(start, Clock.now())
        var render = 0.0
        var write = 0.0
        for (path, descriptor) in loaded {
            start = Clock.now()
            let text = try generator.render(descriptor, fileName: path)
            render += Clock.seconds(start, Clock.now())
            start = Clock.now()
            sink.write(text)
            write += Clock.seconds(start, Clock.now())
        }
        let total = setup + load + collisions + render + write
        var table = Table(
            "Generator stages over N = \(inputs.count) (one pass, same inputs)",
            [
                ("stage", "stage", false), ("time", "seconds", true), ("per descriptor", "secondsPerDescriptor", true),
                ("share", "share", true),
            ])
        let count = Double(max(inputs.count, 1))
        for (name, seconds) in [
            ("Generator(templates:) (once)", setup),
            ("DescriptorLoader.load (parse + decode + validate)", load),
            ("  of which JSONParser.parse", parse),
            ("DescriptorLoader.checkCollisions", collisions), ("Generator.render", render),
            ("write to /dev/null", write),
        ] {
            table.add([
                .text(name), .seconds(seconds), .seconds(seconds / count),
                Cell(Format.fixed(seconds / total * 100, 1) + " %", .number(seconds / total)),
            ])
        }
        table.notes = [
            "\"of which JSONParser.parse\" is timed in a separate call on the same bytes (not added to the total)."
        ]
        return table
    }

    // MARK: - Measured work

    /// Repeats `work` at least three times and until ≈0.3 s passed (at most 50 times), or once when that takes
    /// over 2 s (the largest N); the median wall time and the peak of the first repetition. A single run of
    /// N = 1,000 moved by a third from one process to the next on this VM, so the target's row is a median.
    private func measure(_ slice: [Input], _ work: (ByteSink) throws -> [Int]) throws -> Run {
        var times: [Double] = []
        var peak = 0
        var sizes: [Int] = []
        var total = 0.0
        while times.count < 50, total < 0.3 || times.count < 3 {
            let sink = ByteSink()
            let start = Clock.now()
            let (written, rise) = try Memory.measurePeak { try work(sink) }
            let seconds = Clock.seconds(start, Clock.now())
            if times.isEmpty { peak = rise }
            sizes = written
            times.append(seconds)
            total += seconds
            if seconds > 2 { break }
        }
        return Run(
            sizes: sizes, seconds: Stats.median(times), peakKiB: peak, outputBytes: sizes.reduce(0, +),
            repetitions: times.count)
    }

    /// The generator pipeline, as `latchkey-gen generate` runs it. Returns the bytes written per descriptor.
    private func pipeline(_ inputs: [Input], sink: ByteSink) throws -> [Int] {
        // What latchkey-gen generate does: load every descriptor on every core (OrderedParallelMap), then render
        // every one on every core, each client written in input order as soon as the ones before it were.
        let generator = try Generator(templates: BuiltInTemplates.all)
        let results = OrderedParallelMap.map(inputs) { DescriptorLoader.load(bytes: $0.bytes, fileName: $0.fileName) }
        var loaded: [(path: String, descriptor: Descriptor)] = []
        loaded.reserveCapacity(inputs.count)
        for (input, result) in zip(inputs, results) {
            guard let descriptor = result.descriptor else {
                let first = result.diagnostics.first.map { "\($0)" } ?? "no diagnostic"
                throw BenchError("synthetic descriptor \(input.fileName) is invalid: \(first)")
            }
            loaded.append((input.fileName, descriptor))
        }
        let collisions = DescriptorLoader.checkCollisions(loaded)
        guard collisions.isEmpty else { throw BenchError("synthetic descriptors collide: \(collisions[0].0)") }
        var sizes: [Int] = []
        sizes.reserveCapacity(loaded.count)
        try OrderedParallelMap.forEach(loaded) { path, descriptor in
            Result { () throws(TemplateError) -> String in try generator.render(descriptor, fileName: path) }
        } consume: { source in
            let before = sink.written
            sink.write(try source.get())
            sizes.append(sink.written - before)
        }
        return sizes
    }

    /// The floor: read the same JSON with JSONSerialization, write the same number of bytes.
    private func floorRun(_ inputs: [Input], outputSizes: [Int], sink: ByteSink) throws -> [Int] {
        // On the same cores as the pipeline: every input read with JSONSerialization at once, then the writes.
        let parsed = OrderedParallelMap.map(inputs) { input in
            input.bytes.withUnsafeBytes { raw in
                let data = Data(
                    bytesNoCopy: UnsafeMutableRawPointer(mutating: raw.baseAddress!), count: raw.count,
                    deallocator: .none)
                return (try? JSONSerialization.jsonObject(with: data)) != nil
            }
        }
        guard !parsed.contains(false) else { throw BenchError("JSONSerialization refused a synthetic descriptor") }
        let filler = [UInt8](repeating: 0x20, count: (outputSizes.max() ?? 0) + 1)
        var sizes: [Int] = []
        sizes.reserveCapacity(inputs.count)
        filler.withUnsafeBytes { fill in
            for index in inputs.indices {
                let before = sink.written
                sink.write(UnsafeRawBufferPointer(rebasing: fill[0..<outputSizes[index]]))
                sizes.append(sink.written - before)
            }
        }
        return sizes
    }
}

/// A benchmark that could not run.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
