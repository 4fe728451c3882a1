import Foundation
import MediaCore
import Testing
@testable import MediaPolicy

@Suite struct PolicySchemaTests {
    static let schema: JSONValue = {
        let data = FileManager.default.contents(atPath: PolicyFixture.repositoryRoot + "/docs/policy.schema.json") ?? Data()
        return (try? JSONParser.parse([UInt8](data))) ?? .null
    }()

    func node(_ path: String...) -> JSONValue? {
        var current = PolicySchemaTests.schema
        for key in path {
            guard case .object(let members) = current, let next = members.first(where: { $0.key == key })?.value else { return nil }
            current = next
        }
        return current
    }

    func keys(_ path: String...) -> [String] {
        var current = PolicySchemaTests.schema
        for key in path {
            guard case .object(let members) = current, let next = members.first(where: { $0.key == key })?.value else { return [] }
            current = next
        }
        guard case .object(let members) = current else { return [] }
        return members.map(\.key).sorted()
    }

    func strings(_ value: JSONValue?) -> [String] {
        guard case .array(let elements) = value else { return [] }
        return elements.compactMap { if case .string(let text) = $0 { return text } else { return nil } }
    }

    @Test func schemaIsDraft2020WithClosedObjects() {
        #expect(node("$schema") == .string("https://json-schema.org/draft/2020-12/schema"))
        #expect(node("additionalProperties") == .bool(false))
        #expect(node("$defs", "tier", "additionalProperties") == .bool(false))
        #expect(node("$defs", "route", "additionalProperties") == .bool(false))
    }

    @Test func schemaListsEveryKeyTheLoaderKnows() {
        #expect(keys("properties") == PolicyFormat.topLevelKeys)
        #expect(keys("$defs", "tier", "properties") == PolicyFormat.tierKeys)
        #expect(keys("$defs", "route", "properties") == PolicyFormat.routeKeys)
        #expect(strings(node("$defs", "tier", "required")) == PolicyFormat.requiredTierKeys)
        #expect(strings(node("$defs", "route", "required")) == PolicyFormat.requiredRouteKeys)
    }

    @Test func schemaEnumsMatchTheModel() {
        #expect(strings(node("$defs", "tier", "properties", "storage", "enum")) == StorageClass.allCases.map(\.rawValue))
        #expect(strings(node("$defs", "tier", "properties", "cache", "enum")) == Tier.CacheRole.allCases.map(\.rawValue))
        #expect(strings(node("$defs", "tier", "properties", "credentials", "enum")) == Tier.CredentialPolicy.allCases.map(\.rawValue))
        #expect(strings(node("$defs", "tier", "properties", "partition", "enum")) == Tier.Partition.allCases.map(\.rawValue))
        #expect(strings(node("$defs", "route", "properties", "methods", "enum")) == Route.Methods.allCases.map(\.rawValue))
        #expect(strings(node("$defs", "tier", "properties", "contentTypes", "default")) == Tier.imageContentTypes)
    }

    @Test func schemaLimitsMatchTheLoader() {
        #expect(node("$defs", "seconds", "maximum") == .number(String(PolicyFormat.maximumSeconds)))
        #expect(node("$defs", "tier", "properties", "maxObjectBytes", "maximum") == .number(String(PolicyFormat.maximumMemoryBytes)))
        #expect(node("$defs", "tier", "properties", "memoryBytes", "maximum") == .number(String(PolicyFormat.maximumMemoryBytes)))
        #expect(node("$defs", "tier", "properties", "diskBytes", "maximum") == .number(String(PolicyFormat.maximumDiskBytes)))
        #expect(node("$defs", "tier", "properties", "maxPixels", "maximum") == .number(String(PolicyFormat.maximumPixels)))
        #expect(node("$defs", "tier", "properties", "originTimeout", "maximum") == .number("3600"))
        let defaults = Tier(name: "d", storage: .none)
        #expect(node("$defs", "tier", "properties", "maxTTL", "default") == .number(String(defaults.maxTTL)))
        #expect(node("$defs", "tier", "properties", "maxObjectBytes", "default") == .number(String(defaults.maxObjectBytes)))
        #expect(node("$defs", "tier", "properties", "maxPixels", "default") == .number(String(defaults.maxPixels)))
        #expect(node("$defs", "tier", "properties", "memoryBytes", "default") == .number(String(defaults.memoryBytes)))
        #expect(node("$defs", "tier", "properties", "diskBytes", "default") == .number(String(defaults.diskBytes)))
        #expect(node("$defs", "tier", "properties", "originTimeout", "default") == .number("15"))
    }

    @Test func defaultPolicyValidatesAgainstTheSchema() throws {
        let data = try #require(FileManager.default.contents(atPath: PolicyFixture.repositoryRoot + "/Policies/default.json"))
        let policy = try JSONParser.parse([UInt8](data))
        #expect(MiniSchemaValidator(root: PolicySchemaTests.schema).isValid(policy))
    }

    /// Single-file rules: the schema and the loader agree on each example.
    @Test(arguments: [
        (#"{ "storage": "disk" }"#, true),
        (#"{ "storage": "disk", "maxTTTL": 60 }"#, false),
        (#"{ "cache": "shared" }"#, false),
        (#"{ "storage": "disc" }"#, false),
        (#"{ "storage": "disk", "maxTTL": -1 }"#, false),
        (#"{ "storage": "disk", "maxTTL": 2147483649 }"#, false),
        (#"{ "storage": "disk", "maxTTL": 1.5 }"#, false),
        (#"{ "storage": "disk", "memoryBytes": 1099511627777 }"#, false),
        (#"{ "storage": "disk", "originTimeout": 0 }"#, false),
        (#"{ "storage": "disk", "originTimeout": 0.5 }"#, true),
        (#"{ "storage": "disk", "contentTypes": ["*/*"] }"#, true),
        (#"{ "storage": "disk", "contentTypes": ["*/*", "image/png"] }"#, false),
        (#"{ "storage": "disk", "contentTypes": ["image/png", "image/png"] }"#, false),
        (#"{ "storage": "disk", "contentTypes": [] }"#, false),
        (#"{ "storage": "disk", "versionParameter": "a=b" }"#, false),
        (#"{ "storage": "disk", "credentials": "forward" }"#, false),
        (#"{ "storage": "disk", "credentials": "bearer-required" }"#, false),
        (#"{ "storage": "memory", "credentials": "forward", "partition": "credential" }"#, true),
        (#"{ "storage": "memory", "partition": "credential" }"#, false),
        (#"{ "storage": "memory", "cache": "private" }"#, false),
        (#"{ "storage": "disk", "cache": "private", "partition": "credential", "credentials": "forward" }"#, false),
        (#"{ "storage": "none", "downstreamCacheControl": "max-age=60" }"#, false),
        (#"{ "storage": "none", "downstreamCacheControl": "no-store" }"#, true),
        (#"{ "storage": "none", "serveStaleOnError": 5 }"#, false),
        (#"{ "storage": "memory", "partition": "credential", "credentials": "forward", "downstreamCacheControl": "public" }"#, false),
        (#"{ "storage": "memory", "partition": "credential", "credentials": "forward", "downstreamCacheControl": "private" }"#, true),
        (#"{ "storage": "disk", "unversionedMaxTTL": 300 }"#, false),
        (#"{ "storage": "disk", "unversionedMaxTTL": 300, "versionParameter": "v" }"#, true),
    ])
    func schemaAndLoaderAgreeOnTiers(tier: String, valid: Bool) throws {
        let text = PolicyFixture.tierPolicy(tier)
        let schemaValid = MiniSchemaValidator(root: PolicySchemaTests.schema).isValid(try JSONParser.parse(Array(text.utf8)))
        #expect(schemaValid == valid)
        #expect(PolicyFixture.messages(text).isEmpty == valid)
    }

    @Test(arguments: [
        (#""mount": "/r/", "origin": "http://o.example/""#, true),
        (#""mount": "/r", "origin": "http://o.example/""#, false),
        (#""mount": "/a//", "origin": "http://o.example/""#, false),
        (#""mount": "/_mediactl/x/", "origin": "http://o.example/""#, false),
        (#""mount": "/r/", "origin": "ftp://o.example/""#, false),
        (#""mount": "/r/", "origin": "http://u@o.example/""#, false),
        (#""mount": "/r/", "origin": "http://o.example/?q""#, false),
        (#""mount": "/r/", "origin": "http://o.example/#f""#, false),
        (#""mount": "/r/", "origin": "http://o.example""#, false),
        (#""mount": "/r/", "origin": "https://[::1]:8443/a/""#, true),
        (#""mount": "/r/", "origin": "http://o.example/", "methods": "all""#, true),
        (#""mount": "/r/", "origin": "http://o.example/", "methods": "write""#, false),
    ])
    func schemaAndLoaderAgreeOnRoutes(fields: String, valid: Bool) throws {
        let text = #"{ "tiers": { "t": { "storage": "disk" } }, "routes": [ { "name": "r", "tier": "t", \#(fields) } ] }"#
        let schemaValid = MiniSchemaValidator(root: PolicySchemaTests.schema).isValid(try JSONParser.parse(Array(text.utf8)))
        #expect(schemaValid == valid)
        #expect(PolicyFixture.messages(text).isEmpty == valid)
    }
}
