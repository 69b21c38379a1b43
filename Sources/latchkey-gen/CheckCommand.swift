import Foundation
import LatchkeyGenerator

/// `latchkey-gen check`: fails with a unified diff when the committed mirror drifts.
struct CheckCommand {
    let options: Options

    init(arguments: [String]) throws(UsageError) {
        options = try Options(
            arguments, valued: ["--generated", "--templates", "--descriptors"], flags: [], command: "check")
        if !options.positional.isEmpty { throw UsageError("'check' takes no file arguments") }
    }

    func run() throws -> Int32 {
        if options.flags.contains("--help") {
            print(Help.forCommand("check")!)
            return ExitCode.ok
        }
        let generated = options.values["--generated"] ?? "Generated"
        let set = DescriptorSet(paths: try DescriptorSet.files(in: options.values["--descriptors"] ?? "Descriptors"))
        if set.failed { return ExitCode.invalid }
        let templates = try DescriptorSet.templatesDirectory(options.values["--templates"])
        let index = (
            descriptorPath: "Descriptors", fileName: Generator.indexFileName,
            source: try set.renderIndex(templates: templates)
        )
        if !set.checkVendorModules() { return ExitCode.invalid }
        let vendor = try set.renderVendorSDKs(templates: templates).map {
            (
                descriptorPath: $0.descriptorPath,
                fileName: (Generator.vendorSDKDirectory as NSString).appendingPathComponent(
                    Generator.vendorSDKFileName(module: $0.module)),
                source: $0.source
            )
        }
        let rendered = try set.render(templates: templates) + [index] + vendor
        var drifted = 0
        for file in rendered {
            let path = (generated as NSString).appendingPathComponent(file.fileName)
            let committed = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
            guard committed != file.source else { continue }
            drifted += 1
            let reason = committed == nil ? "is missing" : "differs from what the descriptor generates"
            Console.error("\(file.descriptorPath):1:1: error: \(path) \(reason)")
            print(
                UnifiedDiff.make(
                    old: committed ?? "", new: file.source, oldName: "a/\(path)",
                    newName: "b/\(path) (generated from \(file.descriptorPath))"), terminator: "")
        }
        let expected = Set(rendered.map(\.fileName))
        let vendorDirectory = (generated as NSString).appendingPathComponent(Generator.vendorSDKDirectory)
        let present =
            ((try? FileManager.default.contentsOfDirectory(atPath: generated)) ?? [])
            + ((try? FileManager.default.contentsOfDirectory(atPath: vendorDirectory)) ?? []).map {
                (Generator.vendorSDKDirectory as NSString).appendingPathComponent($0)
            }
        for name in present.sorted() where name.hasSuffix(".swift") && !expected.contains(name) {
            drifted += 1
            Console.error(
                "\((generated as NSString).appendingPathComponent(name)):1:1: error: no descriptor generates this file; its descriptor was removed or renamed"
            )
        }
        guard drifted > 0 else { return ExitCode.ok }
        Console.error(
            "latchkey-gen: \(drifted) generated file(s) out of date. Run 'swift package --allow-writing-to-package-directory regenerate' and commit Generated/."
        )
        return ExitCode.invalid
    }
}
