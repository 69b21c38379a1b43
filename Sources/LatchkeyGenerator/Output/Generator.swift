import Foundation
import LatchkeyDescriptor

/// Turns descriptors into Swift source through the templates.
public struct Generator: Sendable {
    /// The template every client is rendered through.
    public static let clientTemplateName = "Client.swift.template"

    let client: Template
    let index: Template?
    let vendorSDK: Template?

    /// The template of a vendor-SDK surface (a descriptor's `vendorSDK`).
    public static let vendorSDKTemplateName = "VendorSDK.swift.template"
    /// The folder of `Generated/` that holds the vendor-SDK surfaces, one `<module>.swift` each: outside the
    /// client files, which the `Latchkey` module compiles, because each surface is a module of its own.
    public static let vendorSDKDirectory = "vendor"

    /// The template of the provider index.
    public static let indexTemplateName = "Index.swift.template"
    /// The file the provider index is written to (no descriptor can be named so: `_` is not allowed).
    public static let indexFileName = "_index.swift"

    /// Creates a generator from template sources.
    /// - Parameter templates: Template text by file name; must include ``clientTemplateName``. The
    ///   `_Name.swift.template` ones are the partials the others include with `{{> Name}}`.
    /// - Throws: ``TemplateError`` when a template is missing or malformed, or includes a partial that is
    ///   missing or includes itself.
    public init(templates: [String: String]) throws(TemplateError) {
        guard let source = templates[Self.clientTemplateName] else {
            throw .render("the templates have no \(Self.clientTemplateName)")
        }
        self.client = try Template(source: source, name: Self.clientTemplateName, partials: templates)
        self.index = try templates[Self.indexTemplateName].map { (text: String) throws(TemplateError) in
            try Template(source: text, name: Self.indexTemplateName, partials: templates)
        }
        self.vendorSDK = try templates[Self.vendorSDKTemplateName].map { (text: String) throws(TemplateError) in
            try Template(source: text, name: Self.vendorSDKTemplateName, partials: templates)
        }
    }

    /// Creates a generator from a templates directory, or the built-in templates when `nil`.
    ///
    /// The directory's `*.template` files are read; a partial (`_Name.swift.template`) it does not hold is
    /// the built-in one, so a directory can replace a single partial, or the client template alone.
    /// - Parameter directory: The `Templates/` directory.
    /// - Throws: ``TemplateError`` when a template is missing or malformed.
    public init(templatesDirectory directory: String?) throws(TemplateError) {
        guard let directory else {
            try self.init(templates: BuiltInTemplates.all)
            return
        }
        var templates: [String: String] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names.sorted() where name.hasSuffix(".template") {
            let path = (directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
            else { throw .render("cannot read \(path)") }
            templates[name] = text
        }
        for (name, text) in BuiltInTemplates.all where name.hasPrefix("_") && templates[name] == nil {
            templates[name] = text
        }
        try self.init(templates: templates)
    }

    /// The output file name for a descriptor file (`supabase.json` → `supabase.swift`).
    public static func outputFileName(forDescriptorFile path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension + ".swift"
    }

    /// Renders the provider index: every client's spec, sorted by descriptor name.
    /// - Parameter descriptors: Valid descriptors.
    /// - Returns: The Swift source, ending with one newline.
    /// - Throws: ``TemplateError`` when the templates have no index template or it cannot show a value.
    public func renderIndex(_ descriptors: [Descriptor]) throws(TemplateError) -> String {
        guard let index else { throw .render("the templates have no \(Self.indexTemplateName)") }
        let clients = descriptors.sorted { $0.name < $1.name }.map {
            TemplateContext(["typeName": .text($0.swiftName + "Client")])
        }
        return Self.endingWithOneNewline(try index.render(TemplateContext(["clients": .list(clients)])).text)
    }

    /// Renders one client.
    /// - Parameters:
    ///   - descriptor: A valid descriptor.
    ///   - fileName: The descriptor's file name, named in the header.
    /// - Returns: The Swift source, ending with one newline.
    /// - Throws: ``TemplateError`` when the template cannot show a value.
    public func render(_ descriptor: Descriptor, fileName: String) throws(TemplateError) -> String {
        let code = try client.render(ClientContext.make(descriptor, fileName: fileName)).text
        return Self.endingWithOneNewline(code)
    }

    /// Renders the vendor-SDK surface a descriptor declares (`vendorSDK`), or `nil` when it declares none.
    /// - Parameters:
    ///   - descriptor: A valid descriptor.
    ///   - fileName: The descriptor's file name, named in the header.
    /// - Returns: The Swift source of the module, ending with one newline.
    /// - Throws: ``TemplateError`` when the templates have no vendor-SDK template or it cannot show a value.
    public func renderVendorSDK(_ descriptor: Descriptor, fileName: String) throws(TemplateError) -> String? {
        guard let sdk = descriptor.vendorSDK else { return nil }
        guard let vendorSDK else { throw .render("the templates have no \(Self.vendorSDKTemplateName)") }
        let code = try vendorSDK.render(VendorSDKContext.make(descriptor, sdk, fileName: fileName)).text
        return Self.endingWithOneNewline(code)
    }

    /// The file name of a vendor-SDK surface (`BaseIdP.swift`).
    /// - Parameter module: The module the descriptor declares.
    public static func vendorSDKFileName(module: String) -> String {
        module + ".swift"
    }

    /// The text with its trailing line breaks replaced by exactly one.
    static func endingWithOneNewline(_ text: String) -> String {
        // Already so (the usual case): no copy. ("\r\n" is one Character, not a "\n": the slow path.)
        let bytes = text.utf8
        if bytes.last == UInt8(ascii: "\n"), let before = bytes.dropLast().last, before != UInt8(ascii: "\n"),
            before != UInt8(ascii: "\r")
        {
            return text
        }
        var text = text
        while text.hasSuffix("\n") { text.removeLast() }
        return text + "\n"
    }
}
