import MediaCore
import Foundation
@testable import MediaPolicy

/// A JSON Schema (draft 2020-12) validator for the keywords docs/policy.schema.json uses: `$ref`
/// (local), `type`, `enum`, `const`, `required`, `properties`, `additionalProperties`,
/// `propertyNames`, `items`, `minimum`, `maximum`, `exclusiveMinimum`, `minLength`, `maxLength`,
/// `minItems`, `uniqueItems`, `pattern`, `not`, `allOf`, `oneOf`, `if`/`then`, boolean schemas.
/// Annotations (`description`, `default`, `title`, `$id`, `$schema`) are ignored. Test-only.
struct MiniSchemaValidator {
    let root: JSONValue

    /// Whether `instance` is valid against the root schema.
    func isValid(_ instance: JSONValue) -> Bool { valid(instance, root) }

    private func valid(_ instance: JSONValue, _ schema: JSONValue) -> Bool {
        if case .bool(let accepts) = schema { return accepts }
        guard case .object(let members) = schema else { return false }
        for member in members where !check(member.key, member.value, instance, members) { return false }
        return true
    }

    private func member(_ key: String, _ members: [JSONValue.Member]) -> JSONValue? {
        members.first { $0.key == key }?.value
    }

    private func check(_ keyword: String, _ value: JSONValue, _ instance: JSONValue, _ schema: [JSONValue.Member]) -> Bool {
        switch keyword {
        case "$ref":
            guard case .string(let reference) = value, reference.hasPrefix("#/") else { return false }
            var target = root
            for part in reference.dropFirst(2).split(separator: "/") {
                guard case .object(let members) = target, let next = member(String(part), members) else { return false }
                target = next
            }
            return valid(instance, target)
        case "type":
            guard case .string(let type) = value else { return false }
            switch (type, instance) {
            case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null): return true
            case ("number", .number): return true
            case ("integer", .number(let text)): return Double(text).map { $0 == $0.rounded() } ?? false
            default: return false
            }
        case "enum":
            guard case .array(let options) = value else { return false }
            return options.contains { equal($0, instance) }
        case "const":
            return equal(value, instance)
        case "required":
            guard case .object(let members) = instance else { return true }
            guard case .array(let names) = value else { return false }
            return names.allSatisfy { name in members.contains { .string($0.key) == name } }
        case "properties":
            guard case .object(let members) = instance, case .object(let properties) = value else { return true }
            return members.allSatisfy { field in member(field.key, properties).map { valid(field.value, $0) } ?? true }
        case "additionalProperties":
            guard case .object(let members) = instance else { return true }
            let known = member("properties", schema).flatMap { properties -> [String]? in
                guard case .object(let list) = properties else { return nil }
                return list.map(\.key)
            } ?? []
            return members.allSatisfy { known.contains($0.key) || valid($0.value, value) }
        case "propertyNames":
            guard case .object(let members) = instance else { return true }
            return members.allSatisfy { valid(.string($0.key), value) }
        case "items":
            guard case .array(let elements) = instance else { return true }
            return elements.allSatisfy { valid($0, value) }
        case "minimum", "maximum", "exclusiveMinimum":
            guard case .number(let text) = instance else { return true }
            guard case .number(let limitText) = value, let number = Double(text), let limit = Double(limitText) else { return false }
            return keyword == "minimum" ? number >= limit : keyword == "maximum" ? number <= limit : number > limit
        case "minLength", "maxLength", "minItems", "maxItems":
            guard case .number(let limitText) = value, let limit = Int(limitText) else { return false }
            switch (keyword, instance) {
            case ("minLength", .string(let text)): return text.unicodeScalars.count >= limit
            case ("maxLength", .string(let text)): return text.unicodeScalars.count <= limit
            case ("minItems", .array(let elements)): return elements.count >= limit
            case ("maxItems", .array(let elements)): return elements.count <= limit
            default: return true
            }
        case "uniqueItems":
            guard case .array(let elements) = instance, value == .bool(true) else { return true }
            for (index, element) in elements.enumerated() where elements[..<index].contains(where: { equal($0, element) }) {
                return false
            }
            return true
        case "pattern":
            guard case .string(let text) = instance else { return true }
            guard case .string(let pattern) = value, let regex = try? NSRegularExpression(pattern: pattern) else { return false }
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        case "not":
            return !valid(instance, value)
        case "allOf":
            guard case .array(let schemas) = value else { return false }
            return schemas.allSatisfy { valid(instance, $0) }
        case "oneOf":
            guard case .array(let schemas) = value else { return false }
            return schemas.filter { valid(instance, $0) }.count == 1
        case "if":
            guard valid(instance, value) else { return true }
            return member("then", schema).map { valid(instance, $0) } ?? true
        default:
            return true
        }
    }

    private func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): return Double(a) == Double(b)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        default: return lhs == rhs
        }
    }
}
