// A JSON Schema (draft 2020-12) validator for the keywords scene.schema.json uses, so tests can
// check that the schema and the decoder agree. Not a general validator: unknown keywords fail
// loudly so the schema cannot silently use one this does not check.
import TerrapinIO
import Foundation
import TerrapinScene

struct SchemaValidator {
    let root: JSONNode

    init(_ schema: String) throws { root = try JSONParser.parse(Array(schema.utf8)) }

    static let known: Set<String> = ["$schema", "$id", "title", "description", "type", "properties", "additionalProperties", "required",
                                     "enum", "const", "minimum", "maximum", "items", "minItems", "maxItems", "minProperties",
                                     "maxProperties", "maxLength", "oneOf", "anyOf", "$ref", "$defs", "pattern", "if", "then", "else", "dependentRequired"]

    /// Problems found (JSON pointer-ish paths); empty when `instance` is valid.
    func validate(_ instance: JSONNode) -> [String] {
        var errors: [String] = []
        check(instance, root, "$", &errors)
        return errors
    }

    func isValid(_ instance: JSONNode, _ schema: JSONNode) -> Bool {
        var errors: [String] = []
        check(instance, schema, "$", &errors)
        return errors.isEmpty
    }

    func resolve(_ ref: String) -> JSONNode? {
        guard ref.hasPrefix("#/") else { return nil }
        var node = root
        for part in ref.dropFirst(2).split(separator: "/") {
            guard case .object(let members) = node.value, let next = members.first(where: { $0.key == part })?.value else { return nil }
            node = next
        }
        return node
    }

    func check(_ value: JSONNode, _ schema: JSONNode, _ path: String, _ errors: inout [String]) {
        guard case .object(let keywords) = schema.value else { errors.append("\(path): schema is not an object"); return }
        let k = Dictionary(uniqueKeysWithValues: keywords.map { ($0.key, $0.value) })
        for key in k.keys where !Self.known.contains(key) { errors.append("\(path): the validator does not know \(key)") }

        if case .string(let ref)? = k["$ref"]?.value {
            guard let target = resolve(ref) else { errors.append("\(path): unresolvable \(ref)"); return }
            check(value, target, path, &errors)
        }
        if case .array(let types)? = k["type"]?.value {
            if !types.contains(where: { has(value, type: $0) }) { errors.append("\(path): wrong type") }
        } else if let t = k["type"], !has(value, type: t) {
            errors.append("\(path): expected \(t.value), found \(value.typeDescription)")
        }
        if case .array(let options)? = k["enum"]?.value, !options.contains(where: { same($0, value) }) { errors.append("\(path): not in enum") }
        if let c = k["const"], !same(c, value) { errors.append("\(path): not the constant") }
        if case .number(let n) = value.value {
            if case .number(let min)? = k["minimum"]?.value, n < min { errors.append("\(path): below minimum") }
            if case .number(let max)? = k["maximum"]?.value, n > max { errors.append("\(path): above maximum") }
        }
        if case .string(let s) = value.value, case .number(let max)? = k["maxLength"]?.value, Double(s.unicodeScalars.count) > max {
            errors.append("\(path): longer than \(Int(max)) characters")
        }
        if case .string(let s) = value.value, case .string(let pattern)? = k["pattern"]?.value {
            let regex = try! NSRegularExpression(pattern: pattern)
            if regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) == nil { errors.append("\(path): does not match \(pattern)") }
        }
        if case .array(let items) = value.value {
            if case .number(let min)? = k["minItems"]?.value, Double(items.count) < min { errors.append("\(path): too few items") }
            if case .number(let max)? = k["maxItems"]?.value, Double(items.count) > max { errors.append("\(path): too many items") }
            if let itemSchema = k["items"] { for (i, item) in items.enumerated() { check(item, itemSchema, "\(path)[\(i)]", &errors) } }
        }
        if case .object(let members) = value.value {
            let names = members.map(\.key)
            if case .number(let min)? = k["minProperties"]?.value, Double(members.count) < min { errors.append("\(path): too few properties") }
            if case .number(let max)? = k["maxProperties"]?.value, Double(members.count) > max { errors.append("\(path): too many properties") }
            if case .array(let required)? = k["required"]?.value {
                for r in required { if case .string(let name) = r.value, !names.contains(name) { errors.append("\(path): missing \(name)") } }
            }
            if case .object(let deps)? = k["dependentRequired"]?.value {
                for dep in deps where names.contains(dep.key) {
                    if case .array(let needed) = dep.value.value {
                        for n in needed { if case .string(let name) = n.value, !names.contains(name) { errors.append("\(path): \(dep.key) needs \(name)") } }
                    }
                }
            }
            var properties: [String: JSONNode] = [:]
            if case .object(let props)? = k["properties"]?.value { for p in props { properties[p.key] = p.value } }
            for member in members {
                if let s = properties[member.key] {
                    check(member.value, s, path + "." + member.key, &errors)
                } else if case .bool(false)? = k["additionalProperties"]?.value {
                    errors.append("\(path): unknown key \(member.key)")
                }
            }
        }
        if case .array(let options)? = k["oneOf"]?.value {
            let passing = options.filter { isValid(value, $0) }.count
            if passing != 1 { errors.append("\(path): \(passing) of oneOf match") }
        }
        if case .array(let options)? = k["anyOf"]?.value, !options.contains(where: { isValid(value, $0) }) {
            errors.append("\(path): no anyOf matches")
        }
        if let condition = k["if"] {
            if isValid(value, condition) {
                if let then = k["then"] { check(value, then, path, &errors) }
            } else if let otherwise = k["else"] {
                check(value, otherwise, path, &errors)
            }
        }
    }

    func has(_ value: JSONNode, type: JSONNode) -> Bool {
        guard case .string(let t) = type.value else { return false }
        switch (t, value.value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null), ("number", .number): return true
        case ("integer", .number(let n)): return n.rounded() == n
        default: return false
        }
    }

    func same(_ a: JSONNode, _ b: JSONNode) -> Bool {
        switch (a.value, b.value) {
        case (.string(let x), .string(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        default: false
        }
    }
}
