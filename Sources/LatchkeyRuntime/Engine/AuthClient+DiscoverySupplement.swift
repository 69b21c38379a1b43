import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// Where RFC 8414 metadata can fill in members an OpenID discovery document lacks.
struct DiscoverySupplement: Sendable, Equatable {
    /// The `/.well-known/oauth-authorization-server` URL of the issuer.
    let url: URL
    /// The issuer the metadata must name.
    let issuer: String
    /// The store key the merged document is written to, or `nil` when the OpenID document was not stored
    /// (`Cache-Control: no-store`).
    let storeKey: String?
}

extension AuthClient {
    /// The variables for rendering `templates`, with the RFC 8414 metadata read first when one of them
    /// needs a discovered member the OpenID document lacks (see ``supplementDiscovery(for:)``).
    /// - Parameters:
    ///   - flow: The flow's variables.
    ///   - templates: The templates about to be rendered.
    func scope(_ flow: [String: JSON?] = [:], rendering templates: [ValueTemplate]) async throws(AuthError)
        -> VariableScope
    {
        _ = try await discover()
        await supplementDiscovery(for: templates)
        return try await scope(flow)
    }

    /// Reads the issuer's RFC 8414 metadata (once per discovery) when a template about to be rendered refers
    /// to a `{discovered.NAME}` the OpenID document lacks, unless an alternative before it has a value
    /// (django-oauth-toolkit lists `revocation_endpoint` only in the metadata). A plain OpenID provider is therefore
    /// never asked for it during a sign-in. OpenID members win; the metadata must name the same issuer; any
    /// failure keeps the OpenID document as it is; after a transport failure (network, 5xx, rate limit)
    /// the next request that needs a missing member asks again. The merged document replaces the stored one.
    /// - Parameter templates: The templates about to be rendered.
    func supplementDiscovery(for templates: [ValueTemplate]) async {
        guard let current = discovery, let supplement = current.supplement else { return }
        let missing = unresolvedDiscoveredNames(in: templates, values: current.values)
        guard !missing.isEmpty, var merged = current.document.object else { return }
        discovery?.supplement = nil  // One attempt per discovery, also for callers arriving meanwhile.
        let extra: JSON
        do throws(AuthError) {
            extra = try await fetchDocument(supplement.url).0
        } catch {
            log(.info, "The RFC 8414 metadata could not be read (\(error.code.rawValue)).")
            // A network failure, a 5xx or a rate limit says nothing about the metadata: the next request that
            // needs it asks again. Any other answer (404, not JSON) is final for this discovery.
            if error.kind == .transport, discovery?.document == current.document, discovery?.supplement == nil {
                discovery?.supplement = supplement
            }
            return
        }
        guard let named = extra["issuer"]?.string, acceptsDiscoveredIssuer(named, requested: supplement.issuer),
            let members = extra.object
        else {
            log(.info, "The RFC 8414 metadata names another issuer; ignored.")
            return
        }
        for (name, value) in members where merged[name] == nil { merged[name] = value }
        let values = merged.compactMapValues(\.string)
        let unresolved = missing.subtracting(values.keys).sorted()
        if !unresolved.isEmpty {
            log(.info, "Discovery does not list: \(unresolved.joined(separator: ", ")).")
        }
        // Discovery may have run again while the metadata was read: only the document it was read for grows.
        guard var updated = discovery, updated.document == current.document else { return }
        updated.document = .object(merged)
        updated.values = values
        discovery = updated
        if let key = supplement.storeKey { await storeDiscovery(updated, key: key, issuer: supplement.issuer) }
    }

    /// The discovered member names the templates need and `values` lacks: in a reference's alternatives
    /// (`{discovered.a ?? input}`), a missing discovered member counts when no alternative before it has
    /// a value among the inputs, derived variables and `values` (a discovered value keeps its precedence
    /// over a configured fallback).
    private func unresolvedDiscoveredNames(in templates: [ValueTemplate], values: [String: String]) -> Set<String> {
        let prefix = "discovered."
        let known = VariableScope(inputs: inputs, discovered: values, derived: provider.variables)
        var missing: Set<String> = []
        for template in templates {
            for alternatives in template.references {
                for alternative in alternatives {
                    if known[alternative] != nil { break }
                    if alternative.hasPrefix(prefix) { missing.insert(String(alternative.dropFirst(prefix.count))) }
                }
            }
        }
        return missing
    }
}

extension ProviderSpec {
    /// Every template a request renders: its URL, query, headers and body, the common headers, the derived
    /// variables, and for token requests the extra token parameters.
    /// - Parameters:
    ///   - request: The request.
    ///   - isTokenRequest: Whether the extra token parameters are added.
    func templates(of request: RequestSpec, isTokenRequest: Bool) -> [ValueTemplate] {
        var parameters = request.query + request.headers + request.body + commonHeaders + variables
        if isTokenRequest { parameters += extraTokenParameters }
        return [request.url] + Self.templates(in: parameters)
    }

    /// The string templates in parameters' values, nested ones included.
    static func templates(in parameters: [ParameterSpec]) -> [ValueTemplate] {
        func strings(_ json: JSONTemplate) -> [ValueTemplate] {
            switch json {
            case .string(let template): [template]
            case .object(let members): members.flatMap { strings($0.value) }
            case .array(let elements): elements.flatMap(strings)
            case .number, .bool, .null: []
            }
        }
        return parameters.flatMap { strings($0.value) }
    }
}
