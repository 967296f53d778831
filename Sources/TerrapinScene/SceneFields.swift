// The scene format said once: each scene object is a table of fields — key, type, range,
// default, unit, one-line doc, since-version — from which
// - the decoder reads and validates it (`Reader.read(_:_:_:into:)`: unknown keys with "did you
//   mean", every value's range, each problem at its JSON path and line:column),
// - the encoder writes it (`ObjectTable.write`: defaults left out),
// - `terrapin schema` prints its JSON Schema (`SceneSchema.json`),
// - `terrapin schema --markdown` prints its reference (docs/scene-fields.md).
// Adding a field is one row. Defaults are the model's own (a table reads into, and compares
// with, the model's default value), so they too are said once.
//
// Every object of the format is a table, views and modifiers too: a view is a table of one row a
// kind (exactly one present) plus its modifiers, and a modifier a table of one row a modifier
// (exactly one key). A row whose value is not a scalar (a colour, a list, a one-of) is `.custom`:
// its own reader and writer beside its schema fragment. Only shared value types (colours,
// symbols, alignments…) remain in `SceneSchema.handWritten`.
import TerrapinIO
import TerrapinViews

/// What a field holds, as the schema and the docs describe it.
struct FieldSpec: Sendable {
    let key: String
    /// The member's JSON Schema (without its description).
    let schema: JSONValue
    /// The type as the reference shows it: "number 0…90", "\"to\" | \"around\"", "camera"…
    let type: String
    let unit: String?
    /// The default as the reference shows it (nil: none, or leaving the key out means absent).
    let defaultText: String?
    let doc: String
    /// The version of the format that first read it.
    let since: String
}

/// Which members may go together, where an object has modes (terrain from a file, from tiles or
/// inline): the schema's `oneOf`/`anyOf` of required sets, and the reference's sentence for it.
/// The table's `check` enforces the same rules, with a message for each.
struct Composition: Sendable {
    /// Members joined to the table's schema: `oneOf`, `anyOf`, `dependentRequired`, `minProperties`…
    let schema: JSONValue
    let text: String

    init(schema: JSONValue, text: String) {
        (self.schema, self.text) = (schema, text)
    }

    init(keyword: String, cases: JSONValue, text: String) {
        self.init(schema: .object([(keyword, cases)]), text: text)
    }
}

/// One member of a scene object: how it is read into the model, and written from it.
struct Field<Model>: Sendable {
    let spec: FieldSpec
    /// Reads the member's node (present) into the model, reporting problems to the reader.
    let read: @Sendable (inout Reader, JSONNode, String, inout Model) -> Void
    /// The member's value, or nil to leave it out (it is the default, or absent).
    let write: @Sendable (Model) -> JSONValue?
}

/// A scene object: its fields in the order they are written, read and documented.
struct ObjectTable<Model: Sendable>: Sendable {
    /// The name of its definition in the schema's `$defs` ("" for the file's root).
    let name: String
    let doc: String
    /// The model a read starts from, whose values are the defaults: made anew for each read, so
    /// no process-long table holds a model (an indirect enum's box in a model is reached through a
    /// pointer with tag bits set, which LeakSanitizer cannot follow: it called such tables leaks).
    var initial: Model { makeInitial() }
    private let makeInitial: @Sendable () -> Model
    let required: [String]
    /// Reported at the object when a required key is missing.
    let requiredMessage: String?
    let fields: [Field<Model>]
    /// Checks the model once every field is read (what no one field can say).
    let check: (@Sendable (inout Reader, JSONNode, String, inout Model) -> Void)?
    /// The fields' keys, readers and writers, each list made once: every object read checks its
    /// members against the keys, and reads and writes run over these lists (walking `fields`
    /// would copy each row, strings and closures, per object: 60 % of `terrapin format`'s time
    /// on 20,000 markers).
    let keys: [String]
    let readers: [@Sendable (inout Reader, JSONNode, String, inout Model) -> Void]
    let writers: [@Sendable (Model) -> JSONValue?]
    let composition: Composition?

    init(name: String, doc: String, initial: @autoclosure @escaping @Sendable () -> Model, required: [String] = [], requiredMessage: String? = nil, composition: Composition? = nil,
         fields: [Field<Model>], check: (@Sendable (inout Reader, JSONNode, String, inout Model) -> Void)? = nil) {
        self.name = name
        self.doc = doc
        makeInitial = initial
        self.required = required
        self.requiredMessage = requiredMessage
        self.composition = composition
        self.fields = fields
        self.check = check
        keys = fields.map(\.spec.key)
        readers = fields.map(\.read)
        writers = fields.map(\.write)
    }

    /// The members to write, in the table's order, defaults left out.
    func write(_ model: Model) -> JSONValue {
        var members: [(String, JSONValue)] = []
        for i in writers.indices {
            if let value = writers[i](model) { members.append((keys[i], value)) }
        }
        return .object(members)
    }

    /// The object's JSON Schema.
    var schema: JSONValue {
        var o: [(String, JSONValue)] = []
        if !doc.isEmpty { o.append(("description", .string(doc))) }
        o.append(("type", .string("object")))
        o.append(("additionalProperties", .bool(false)))
        if !required.isEmpty { o.append(("required", .array(required.map { .string($0) }))) }
        if case .object(let members)? = composition?.schema { o += members }
        o.append(("properties", .object(fields.map { f in (f.spec.key, described(f.spec)) })))
        return .object(o)
    }

    /// The default the reference shows: none for a required member.
    func defaultText(_ spec: FieldSpec) -> String? { required.contains(spec.key) ? nil : spec.defaultText }

    /// A member's schema with its description: the doc, its unit and its default.
    func described(_ spec: FieldSpec) -> JSONValue {
        var text = spec.doc
        if let unit = spec.unit { text += (text.isEmpty ? "" : " ") + "In \(unit)." }
        if let d = defaultText(spec) { text += (text.isEmpty ? "" : " ") + "Default \(d)." }
        guard case .object(var members) = spec.schema else { return spec.schema }
        if !text.isEmpty { members.append(("description", .string(text))) }
        return .object(members)
    }

    /// The object's reference: one Markdown table row a field.
    var markdown: String {
        var text = "### `\(name.isEmpty ? "(scene file)" : name)`\n\n\(doc)\n\n"
        if !required.isEmpty { text += "Required: " + required.map { "`\($0)`" }.joined(separator: ", ") + ".\n\n" }
        if let composition { text += composition.text + "\n\n" }
        text += "| key | type | unit | default | since | what |\n|---|---|---|---|---|---|\n"
        for f in fields {
            let s = f.spec
            func cell(_ t: String) -> String { t.replacingOccurrences(of: "|", with: "\\|") }
            text += "| `\(s.key)` | \(cell(s.type)) | \(s.unit ?? "") | \(defaultText(s).map { "`\(cell($0))`" } ?? "") | \(s.since) | \(cell(s.doc)) |\n"
        }
        return text
    }
}

extension Reader {
    /// Reads an object by its table into `model`: its keys checked, each present member read,
    /// the required ones asked for, then the table's own check.
    @discardableResult
    mutating func read<M>(_ table: ObjectTable<M>, _ node: JSONNode, _ path: String, into model: inout M) -> Members? {
        guard let m = object(node, path, allowed: table.keys) else { return nil }
        if !table.required.isEmpty, table.required.contains(where: { m[$0] == nil }) {
            report(node, path, table.requiredMessage ?? "needs " + table.required.map { "\"\($0)\"" }.joined(separator: " and "))
        }
        for i in table.keys.indices {
            if let value = m[table.keys[i]] { table.readers[i](&self, value, path + "." + table.keys[i], &model) }
        }
        table.check?(&self, node, path, &model)
        return m
    }

    /// A new model read by its table from the table's initial one.
    mutating func read<M>(_ table: ObjectTable<M>, _ node: JSONNode, _ path: String) -> M? {
        var model = table.initial
        guard read(table, node, path, into: &model) != nil else { return nil }
        return model
    }
}

// MARK: - Rows

extension Field where Model: Sendable {
    /// A number within `range`; written when it is not the initial model's.
    static func number(_ key: String, _ keyPath: WritableKeyPath<Model, Double> & Sendable, in range: ClosedRange<Double>, unit: String? = nil,
                       initial: Model, always: Bool = false, doc: String, since: String = "0.1.0") -> Field {
        let d = initial[keyPath: keyPath]
        return Field(spec: FieldSpec(key: key, schema: .object([("type", .string("number")), ("minimum", .number(range.lowerBound)), ("maximum", .number(range.upperBound))]),
                                     type: "number \(JSONValue.number(range.lowerBound).text)…\(JSONValue.number(range.upperBound).text)", unit: unit,
                                     defaultText: JSONValue.number(d).text, doc: doc, since: since),
                     read: { r, node, path, model in
                         if let v = r.number(node, path, in: range, unit: unit.map { " of \($0)" } ?? "") { model[keyPath: keyPath] = v }
                     },
                     write: { !always && $0[keyPath: keyPath] == d ? nil : .number($0[keyPath: keyPath]) })
    }

    /// A whole number within `range`; `always` writes it even when it is the initial model's.
    static func integer(_ key: String, _ keyPath: WritableKeyPath<Model, Int> & Sendable, in range: ClosedRange<Int>, unit: String? = nil,
                        initial: Model, always: Bool = false, doc: String, since: String = "0.1.0") -> Field {
        let d = initial[keyPath: keyPath]
        return Field(spec: FieldSpec(key: key, schema: .object([("type", .string("integer")), ("minimum", .number(Double(range.lowerBound))), ("maximum", .number(Double(range.upperBound)))]),
                                     type: "integer \(range.lowerBound)…\(range.upperBound)", unit: unit, defaultText: String(d), doc: doc, since: since),
                     read: { r, node, path, model in
                         model[keyPath: keyPath] = r.integer(node, path, in: range, default: model[keyPath: keyPath], unit: unit.map { " of \($0)" } ?? "")
                     },
                     write: { !always && $0[keyPath: keyPath] == d ? nil : .number(Double($0[keyPath: keyPath])) })
    }

    /// One of an enumeration's names.
    static func choice<T: RawRepresentable & CaseIterable & Equatable & Sendable>(_ key: String, _ keyPath: WritableKeyPath<Model, T> & Sendable, initial: Model,
                                                                        always: Bool = false, doc: String, since: String = "0.1.0") -> Field where T.RawValue == String {
        let d = initial[keyPath: keyPath]
        let names = T.allCases.map(\.rawValue)
        return Field(spec: FieldSpec(key: key, schema: .object([("enum", .array(names.map { .string($0) }))]),
                                     type: names.map { "\"\($0)\"" }.joined(separator: " | "), unit: nil, defaultText: "\"\(d.rawValue)\"", doc: doc, since: since),
                     read: { r, node, path, model in model[keyPath: keyPath] = r.choice(node, path, default: model[keyPath: keyPath]) },
                     write: { !always && $0[keyPath: keyPath] == d ? nil : .string($0[keyPath: keyPath].rawValue) })
    }

    /// true or false; written when not the initial model's.
    static func bool(_ key: String, _ keyPath: WritableKeyPath<Model, Bool> & Sendable, initial: Model, doc: String, since: String = "0.1.0") -> Field {
        let d = initial[keyPath: keyPath]
        return Field(spec: FieldSpec(key: key, schema: .object([("type", .string("boolean"))]), type: "boolean", unit: nil,
                                     defaultText: d ? "true" : "false", doc: doc, since: since),
                     read: { r, node, path, model in if let b = r.bool(node, path) { model[keyPath: keyPath] = b } },
                     write: { $0[keyPath: keyPath] == d ? nil : .bool($0[keyPath: keyPath]) })
    }

    /// A view colour: a name ("blue", "white"…) or hex; written when not the initial model's.
    static func viewColor(_ key: String, _ keyPath: WritableKeyPath<Model, Color> & Sendable, initial: Model, default shown: String,
                          doc: String, since: String = "0.1.0") -> Field {
        let d = initial[keyPath: keyPath]
        return Field(spec: FieldSpec(key: key, schema: .object([("$ref", .string("#/$defs/color"))]), type: "colour (name or hex)", unit: nil,
                                     defaultText: shown, doc: doc, since: since),
                     read: { r, node, path, model in if let c = r.viewColor(node, path) { model[keyPath: keyPath] = c } },
                     write: { $0[keyPath: keyPath] == d ? nil : SceneEncoder.color($0[keyPath: keyPath]) })
    }

    /// A number within `range` that may be absent (nil: the owner's default, `shown` in the
    /// reference); written when present.
    static func optionalNumber(_ key: String, _ keyPath: WritableKeyPath<Model, Double?> & Sendable, in range: ClosedRange<Double>, unit: String? = nil,
                               default shown: String? = nil, doc: String, since: String = "0.1.0") -> Field {
        Field(spec: FieldSpec(key: key, schema: .object([("type", .string("number")), ("minimum", .number(range.lowerBound)), ("maximum", .number(range.upperBound))]),
                              type: "number \(JSONValue.number(range.lowerBound).text)…\(JSONValue.number(range.upperBound).text)", unit: unit,
                              defaultText: shown, doc: doc, since: since),
              read: { r, node, path, model in model[keyPath: keyPath] = r.number(node, path, in: range, unit: unit.map { " of \($0)" } ?? "") },
              write: { $0[keyPath: keyPath].map { .number($0) } })
    }

    /// A whole number within `range` that may be absent; written when present.
    static func optionalInteger(_ key: String, _ keyPath: WritableKeyPath<Model, Int?> & Sendable, in range: ClosedRange<Int>,
                                doc: String, since: String = "0.1.0") -> Field {
        Field(spec: FieldSpec(key: key, schema: .object([("type", .string("integer")), ("minimum", .number(Double(range.lowerBound))), ("maximum", .number(Double(range.upperBound)))]),
                              type: "integer \(range.lowerBound)…\(range.upperBound)", unit: nil, defaultText: nil, doc: doc, since: since),
              read: { r, node, path, model in model[keyPath: keyPath] = r.integer(node, path, in: range, default: 0) },
              write: { $0[keyPath: keyPath].map { .number(Double($0)) } })
    }

    /// A file (or URL) the scene reads, that may be absent; written when present.
    static func optionalFile(_ key: String, _ keyPath: WritableKeyPath<Model, String?> & Sendable, type: String = "file", doc: String, since: String = "0.1.0") -> Field {
        Field(spec: FieldSpec(key: key, schema: .object([("type", .string("string"))]), type: type, unit: nil, defaultText: nil, doc: doc, since: since),
              read: { r, node, path, model in model[keyPath: keyPath] = r.fileName(node, path) },
              write: { $0[keyPath: keyPath].map { .string($0) } })
    }

    /// A view colour that may be absent (nil: the owner's own colour); written when present.
    static func optionalViewColor(_ key: String, _ keyPath: WritableKeyPath<Model, Color?> & Sendable, doc: String, since: String = "0.1.0") -> Field {
        Field(spec: FieldSpec(key: key, schema: .object([("$ref", .string("#/$defs/color"))]), type: "colour (name or hex)", unit: nil,
                              defaultText: nil, doc: doc, since: since),
              read: { r, node, path, model in model[keyPath: keyPath] = r.viewColor(node, path) },
              write: { $0[keyPath: keyPath].map(SceneEncoder.color) })
    }

    /// The same field of a model held inside another (a standalone popover's popover fields on
    /// its marker).
    func lifted<Outer: Sendable>(_ keyPath: WritableKeyPath<Outer, Model> & Sendable) -> Field<Outer> {
        let read = self.read, write = self.write
        return Field<Outer>(spec: spec, read: { r, node, path, outer in read(&r, node, path, &outer[keyPath: keyPath]) },
                            write: { write($0[keyPath: keyPath]) })
    }

    /// A sub-object whose members are more of the same model's fields (`"stroke": {…}`):
    /// read by its table into the model, written when any of its members is.
    static func group(_ key: String, _ table: ObjectTable<Model>, doc: String, since: String = "0.1.0") -> Field {
        Field(spec: FieldSpec(key: key, schema: .object([("$ref", .string("#/$defs/\(table.name)"))]), type: "`\(table.name)`", unit: nil,
                              defaultText: nil, doc: doc, since: since),
              read: { r, node, path, model in r.read(table, node, path, into: &model) },
              write: { model in
                  guard case .object(let members) = table.write(model), !members.isEmpty else { return nil }
                  return .object(members)
              })
    }

    /// Anything else: its own reader and writer, with its schema fragment.
    static func custom(_ key: String, schema: JSONValue, type: String, unit: String? = nil, default defaultText: String? = nil, doc: String, since: String = "0.1.0",
                       read: @escaping @Sendable (inout Reader, JSONNode, String, inout Model) -> Void, write: @escaping @Sendable (Model) -> JSONValue?) -> Field {
        Field(spec: FieldSpec(key: key, schema: schema, type: type, unit: unit, defaultText: defaultText, doc: doc, since: since), read: read, write: write)
    }

    /// A member whose schema is a definition of the schema's `$defs`.
    static func ref(_ key: String, _ definition: String, doc: String, since: String = "0.1.0",
                    read: @escaping @Sendable (inout Reader, JSONNode, String, inout Model) -> Void, write: @escaping @Sendable (Model) -> JSONValue?) -> Field {
        custom(key, schema: .object([("$ref", .string("#/$defs/\(definition)"))]), type: "`\(definition)`", doc: doc, since: since,
               read: read, write: write)
    }
}

extension JSONValue {
    /// A parsed JSON node as a value to write (a schema fragment).
    init(_ node: JSONNode) {
        switch node.value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(JSONValue.init))
        case .object(let members): self = .object(members.map { ($0.key, JSONValue($0.value)) })
        }
    }

    /// The value of an object's member.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }
}
