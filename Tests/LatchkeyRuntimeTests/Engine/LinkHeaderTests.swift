import Testing

@testable @_spi(Generated) import LatchkeyRuntime

/// RFC 8288 `Link` headers as GoTrue's admin lists send them, and pages read from them.
@Suite struct LinkHeaderTests {
    @Test("next and last are read from the links' page parameter; other relations and broken links are skipped")
    func links() {
        let value =
            #"<https://p.example/auth/v1/admin/users?page=2&per_page=50>; rel="next", "#
            + #"<https://p.example/auth/v1/admin/users?page=7&per_page=50>; rel="last", "#
            + #"<https://p.example/x?page=1>; rel="prev", <broken; rel="next""#
        var headers = HTTPHeaderFields()
        headers.append("X-Total-Count", "321")
        headers.append("Link", value)
        let page = ActionPage.read(
            .object([:]), headers: headers, spec: PaginationSpec(totalHeader: "x-total-count", linkHeader: "link"))
        #expect(page.total == 321)
        #expect(page.nextPage == 2)
        #expect(page.lastPage == 7)
    }

    @Test("Without the headers, or with values that are not numbers, the counts stay nil")
    func missing() {
        var headers = HTTPHeaderFields()
        headers.append("X-Total-Count", "many")
        headers.append("Link", "<https://p.example/x?page=last>; rel=\"last\"")
        let spec = PaginationSpec(totalHeader: "x-total-count", linkHeader: "link")
        let page = ActionPage.read(.null, headers: headers, spec: spec)
        #expect(page == ActionPage(document: .null))
        #expect(ActionPage.read(.null, headers: HTTPHeaderFields(), spec: spec) == ActionPage(document: .null))
    }

    @Test("A link header is bounded: at most 64 links are read")
    func bounded() {
        let many = (1...100).map { "<https://p.example/x?page=\($0)>; rel=\"next\"" }.joined(separator: ", ")
        #expect(LinkHeader.parse(many).count == 64)
    }
}
