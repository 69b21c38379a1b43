import Foundation

/// Finds the forms of an HTML page: a small tag scanner (comments, `<script>` and `<style>` skipped),
/// enough for server-rendered login, consent and device pages.
enum HTMLForms {
    /// A start or end tag.
    struct Tag {
        var name: String
        var isEnd: Bool
        var attributes: [String: String]
        /// For `<textarea>`: the raw text up to `</textarea>`.
        var text: String?
    }

    static func parse(_ html: String, pageURL: URL) -> [FormUserAgent.Form] {
        var forms: [FormUserAgent.Form] = []
        var open: FormUserAgent.Form?
        for tag in tags(html) {
            if tag.name == "form" {
                if tag.isEnd {
                    if let form = open { forms.append(form) }
                    open = nil
                } else {
                    if let form = open { forms.append(form) }
                    open = makeForm(tag, pageURL: pageURL)
                }
                continue
            }
            guard !tag.isEnd, var form = open else { continue }
            let attributes = tag.attributes
            guard attributes["disabled"] == nil else { continue }
            let name = attributes["name"] ?? ""
            switch tag.name {
            case "input":
                let type = (attributes["type"] ?? "text").lowercased()
                switch type {
                case "submit", "image":
                    if !name.isEmpty { form.submitters.append((name, attributes["value"] ?? "")) }
                case "button", "reset", "file":
                    break
                case "checkbox", "radio":
                    if !name.isEmpty, attributes["checked"] != nil {
                        form.fields.append((name, attributes["value"] ?? "on"))
                    }
                default:
                    if !name.isEmpty { form.fields.append((name, attributes["value"] ?? "")) }
                }
            case "button":
                let type = (attributes["type"] ?? "submit").lowercased()
                if type == "submit", !name.isEmpty { form.submitters.append((name, attributes["value"] ?? "")) }
            case "textarea":
                if !name.isEmpty {
                    var text = unescape(tag.text ?? "")
                    if text.hasPrefix("\n") { text.removeFirst() }
                    form.fields.append((name, text))
                }
            default:
                break
            }
            open = form
        }
        if let form = open { forms.append(form) }
        return forms
    }

    private static func makeForm(_ tag: Tag, pageURL: URL) -> FormUserAgent.Form {
        let action = tag.attributes["action"] ?? ""
        let target = action.isEmpty ? pageURL : (URL(string: action, relativeTo: pageURL)?.absoluteURL ?? pageURL)
        let method = (tag.attributes["method"] ?? "get").uppercased() == "POST" ? "POST" : "GET"
        return FormUserAgent.Form(id: tag.attributes["id"], action: target, method: method, fields: [], submitters: [])
    }

    /// The tags of a document, in order.
    static func tags(_ html: String) -> [Tag] {
        let scalars = Array(html.unicodeScalars)
        var tags: [Tag] = []
        var index = 0
        func starts(with text: String, at position: Int) -> Bool {
            var i = position
            for scalar in text.unicodeScalars {
                guard i < scalars.count, lower(scalars[i]) == scalar else { return false }
                i += 1
            }
            return true
        }
        func skip(past text: String, from position: Int) -> Int {
            var i = position
            while i < scalars.count, !starts(with: text, at: i) { i += 1 }
            return min(scalars.count, i + text.unicodeScalars.count)
        }
        while index < scalars.count {
            guard scalars[index] == "<" else {
                index += 1
                continue
            }
            if starts(with: "<!--", at: index) {
                index = skip(past: "-->", from: index + 4)
                continue
            }
            if starts(with: "<!", at: index) || starts(with: "<?", at: index) {
                index = skip(past: ">", from: index + 2)
                continue
            }
            var i = index + 1
            let isEnd = i < scalars.count && scalars[i] == "/"
            if isEnd { i += 1 }
            guard i < scalars.count, isLetter(scalars[i]) else {
                index += 1
                continue
            }
            var name = ""
            while i < scalars.count, isNameCharacter(scalars[i]) {
                name.unicodeScalars.append(lower(scalars[i]))
                i += 1
            }
            var attributes: [String: String] = [:]
            while i < scalars.count {
                while i < scalars.count, isSpace(scalars[i]) || scalars[i] == "/" { i += 1 }
                guard i < scalars.count, scalars[i] != ">" else { break }
                var attribute = ""
                while i < scalars.count, !isSpace(scalars[i]), scalars[i] != "=", scalars[i] != ">", scalars[i] != "/" {
                    attribute.unicodeScalars.append(lower(scalars[i]))
                    i += 1
                }
                while i < scalars.count, isSpace(scalars[i]) { i += 1 }
                var value = ""
                if i < scalars.count, scalars[i] == "=" {
                    i += 1
                    while i < scalars.count, isSpace(scalars[i]) { i += 1 }
                    if i < scalars.count, scalars[i] == "\"" || scalars[i] == "'" {
                        let quote = scalars[i]
                        i += 1
                        while i < scalars.count, scalars[i] != quote {
                            value.unicodeScalars.append(scalars[i])
                            i += 1
                        }
                        i += 1
                    } else {
                        while i < scalars.count, !isSpace(scalars[i]), scalars[i] != ">" {
                            value.unicodeScalars.append(scalars[i])
                            i += 1
                        }
                    }
                }
                if attribute.isEmpty {
                    i += 1
                } else if attributes[attribute] == nil {
                    attributes[attribute] = unescape(value)
                }
            }
            index = min(scalars.count, i + 1)
            var tag = Tag(name: name, isEnd: isEnd, attributes: attributes, text: nil)
            if !isEnd, ["script", "style", "textarea", "title"].contains(name) {
                let close = "</" + name
                var end = index
                while end < scalars.count, !starts(with: close, at: end) { end += 1 }
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars[index..<end])
                if name == "textarea" { tag.text = text }
                index = skip(past: ">", from: end)
            }
            tags.append(tag)
        }
        return tags
    }

    /// Replaces character references (`&amp;`, `&#39;`, `&#x27;`, ...) with their characters.
    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named: [String: String] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        ]
        var out = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            out += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            if let semicolon = after.prefix(12).firstIndex(of: ";") {
                let entity = String(after[..<semicolon])
                var replacement: String?
                if let known = named[entity.lowercased()] {
                    replacement = known
                } else if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    replacement = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if entity.hasPrefix("#") {
                    replacement = UInt32(entity.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init).map { String($0) }
                }
                if let replacement {
                    out += replacement
                    rest = after[after.index(after: semicolon)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }

    private static func lower(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == ":"
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r" || scalar == "\u{0C}"
    }
}
