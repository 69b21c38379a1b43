import Foundation
import LatchkeyTokens

/// One page of a list answer (an action whose request declares `pagination`): the document as the provider sent
/// it, with the counts its headers give.
public struct ActionPage: Sendable, Hashable {
    /// The answer's JSON document (GoTrue's `{"users": [...], "aud": "..."}`).
    public var document: JSON
    /// The total number of items, from the total header; `nil` when the answer has none.
    public var total: Int?
    /// The next page's number, from the `rel="next"` link; `nil` on the last page.
    public var nextPage: Int?
    /// The last page's number, from the `rel="last"` link; `nil` when the answer has none.
    public var lastPage: Int?

    /// Creates a page.
    public init(document: JSON, total: Int? = nil, nextPage: Int? = nil, lastPage: Int? = nil) {
        self.document = document
        self.total = total
        self.nextPage = nextPage
        self.lastPage = lastPage
    }

    /// Reads the counts of a response as `spec` says.
    static func read(
        _ document: JSON, headers: HTTPHeaderFields, spec: PaginationSpec
    ) -> ActionPage {
        var page = ActionPage(document: document)
        if let name = spec.totalHeader, let text = headers[name] {
            page.total = Int(text.trimmingCharacters(in: .whitespaces))
        }
        if let name = spec.linkHeader, headers.contains(name) {
            for link in LinkHeader.parse(headers.values(for: name).joined(separator: ",")) {
                guard let number = link.queryValue(spec.pageParameter).flatMap({ Int($0) }) else { continue }
                if link.relations.contains("next") { page.nextPage = number }
                if link.relations.contains("last") { page.lastPage = number }
            }
        }
        return page
    }
}

/// The links of an RFC 8288 `Link` header: `<url>; rel="next", <url>; rel="last"`.
struct LinkHeader: Sendable, Equatable {
    /// The target URL, as written between `<` and `>`.
    var target: String
    /// The `rel` values (space-separated in one parameter), lower-cased.
    var relations: [String]

    /// The value of a query parameter of the target, percent-decoded.
    func queryValue(_ name: String) -> String? {
        URLComponents(string: target)?.queryItems?.first { $0.name == name }?.value
    }

    /// The links of a header value; malformed ones are skipped. Bounded: at most 64 links of 2048 bytes.
    static func parse(_ value: String) -> [LinkHeader] {
        guard value.utf8.count <= 64 * 2048 else { return [] }
        var links: [LinkHeader] = []
        var rest = Substring(value)
        while links.count < 64, let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let target = String(rest[rest.index(after: open)..<close])
            let afterTarget = rest[rest.index(after: close)...]
            // The link's parameters run to the next "<" (a comma inside a quoted rel is not expected here).
            let end = afterTarget.firstIndex(of: "<") ?? afterTarget.endIndex
            var relations: [String] = []
            for parameter in afterTarget[..<end].split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2,
                    pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel"
                else { continue }
                let trimmed = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " ,\t\""))
                relations += trimmed.lowercased().split(separator: " ").map(String.init)
            }
            links.append(LinkHeader(target: target, relations: relations))
            rest = afterTarget[end...]
        }
        return links
    }
}
