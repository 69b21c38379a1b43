import Foundation
import LatchkeyGenerator

/// `latchkey-gen generate`: writes one client per descriptor, only when its bytes change.
struct GenerateCommand {
    let options: Options

    init(arguments: [String]) throws(UsageError) {
        options = try Options(
            arguments, valued: ["--output", "--templates", "--descriptors", "--select", "--catalog", "--vendor-sdk"],
            flags: ["--prune", "--index"],
            command: "generate")
    }

    func run() throws -> Int32 {
        if options.flags.contains("--help") {
            print(Help.forCommand("generate")!)
            return ExitCode.ok
        }
        let output = options.values["--output"] ?? "Generated"
        if let selection = options.values["--select"] {
            guard let catalog = options.values["--catalog"] else { throw UsageError("--select needs --catalog DIR") }
            let templates = try DescriptorSet.templatesDirectory(options.values["--templates"])
            return try SelectionGeneration(
                selectionPath: selection, catalogDirectory: catalog, ownDescriptorPaths: options.positional
            ).run(output: output, templates: templates)
        }
        let directoryMode = options.positional.isEmpty && !options.flags.contains("--index")
        let paths =
            try directoryMode
            ? DescriptorSet.files(in: options.values["--descriptors"] ?? "Descriptors") : options.positional
        let set = DescriptorSet(paths: paths)
        if set.failed || !set.checkVendorModules() { return ExitCode.invalid }
        let templates = try DescriptorSet.templatesDirectory(options.values["--templates"])
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        if let module = options.values["--vendor-sdk"] {
            return try Self.writeVendorSDK(module: module, set: set, templates: templates, output: output)
        }
        let writesIndex = options.flags.contains("--index") || directoryMode
        if writesIndex {
            try Self.write(try set.renderIndex(templates: templates), to: output, name: Generator.indexFileName)
            if options.flags.contains("--index") { return ExitCode.ok }
        }
        var written: [String] = []
        try set.renderEach(templates: templates) { fileName, source in
            try Self.write(source, to: output, name: fileName)
            written.append(fileName)
        }
        let vendorDirectory = (output as NSString).appendingPathComponent(Generator.vendorSDKDirectory)
        var vendorFiles: [String] = []
        if directoryMode {
            for sdk in try set.renderVendorSDKs(templates: templates) {
                try FileManager.default.createDirectory(atPath: vendorDirectory, withIntermediateDirectories: true)
                let name = Generator.vendorSDKFileName(module: sdk.module)
                try Self.write(sdk.source, to: vendorDirectory, name: name)
                vendorFiles.append(name)
            }
        }
        if options.flags.contains("--prune") {
            let keep = Set(written + (writesIndex ? [Generator.indexFileName] : []))
            try Self.prune(output, keeping: keep)
            if directoryMode { try Self.prune(vendorDirectory, keeping: Set(vendorFiles)) }
        }
        return ExitCode.ok
    }

    /// Removes the generated `.swift` files of a directory that are not in `keep`.
    static func prune(_ directory: String, keeping keep: Set<String>) throws {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where name.hasSuffix(".swift") && !keep.contains(name) {
            let path = (directory as NSString).appendingPathComponent(name)
            if GeneratedFiles.isGenerated(path: path) { try FileManager.default.removeItem(atPath: path) }
        }
    }

    /// `--vendor-sdk MODULE`: writes `<output>/MODULE.swift`, the surface of the one descriptor that declares the
    /// module (the build plugin of a vendor-SDK target passes every catalog descriptor). When none declares it (the
    /// descriptor was removed), the file declares nothing and a warning says so: removing a descriptor never breaks
    /// the build, and an app that uses the module fails where it names a missing type.
    static func writeVendorSDK(module: String, set: DescriptorSet, templates: String?, output: String) throws -> Int32 {
        let name = Generator.vendorSDKFileName(module: module)
        guard let sdk = try set.renderVendorSDKs(templates: templates).first(where: { $0.module == module }) else {
            Console.error(
                "latchkey-gen: warning: no descriptor declares the vendor-SDK module \(module) "
                    + "(\"vendorSDK\": { \"module\": \"\(module)\" }); the module is empty")
            try write(
                "\(GeneratedFiles.marker): no descriptor declares the vendor-SDK module \(module).\n", to: output,
                name: name)
            return ExitCode.ok
        }
        try write(sdk.source, to: output, name: name)
        return ExitCode.ok
    }

    /// Writes a file only when its bytes change, so a no-op build recompiles nothing.
    static func write(_ source: String, to directory: String, name: String) throws {
        let path = (directory as NSString).appendingPathComponent(name)
        let data = Data(source.utf8)
        if FileManager.default.contents(atPath: path) != data {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        }
    }
}

/// Recognizes files latchkey-gen wrote, so pruning never removes a hand-written file.
enum GeneratedFiles {
    static let marker = "// Generated by latchkey-gen"

    static func isGenerated(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 512)) ?? Data()
        return String(decoding: head, as: UTF8.self).contains(marker)
    }
}
