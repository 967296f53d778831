// Style expressions, legacy filters and functions, and the style format's warnings and errors.
import Foundation
import Testing
import TerrapinIO
import TerrapinTiles
@testable import TerrapinBasemap

func expr(_ json: String) throws -> StyleExpression {
    try StyleExpressionParser.value(try JSONParser.parse(Array(json.utf8)))
}

func filter(_ json: String) throws -> StyleExpression {
    try StyleExpressionParser.filter(try JSONParser.parse(Array(json.utf8)))
}

/// A one-feature layer with the given properties, for evaluating filters.
func feature(_ properties: [(String, StyleValue)], type: GeometryType = .polygon, id: UInt64? = 42, parts partCount: Int = 1) -> EvaluationContext {
    let keys = properties.map(\.0), values = properties.map(\.1)
    var tags: [UInt32] = []
    for i in properties.indices { tags += [UInt32(i), UInt32(i)] }
    // Each part apart from the others (a polygon's rings all outer: counter-clockwise in y-down).
    var coordinates: [Int32] = [], parts: [Int] = []
    for p in 0..<partCount {
        let o = Int32(p * 20)
        coordinates += type == .polygon ? [o, 0, o + 10, 0, o + 10, 10] : [o, 0, o + 5, 5]
        parts.append(coordinates.count / 2)
    }
    let f = VectorTile.Feature(id: id, type: type, tags: tags, coordinates: coordinates, parts: parts)
    var keyIndex: [String: Int] = [:]
    for (i, k) in keys.enumerated() { keyIndex[k] = i }
    let layer = VectorTile.Layer(name: "t", extent: 4096, keys: keys, values: values, features: [f], keyIndex: keyIndex)
    return EvaluationContext(zoom: 14, layer: layer, feature: f)
}

@Suite struct StyleExpressionTests {
    let road = feature([("class", .string("primary")), ("rank", .number(3)), ("name:latin", .string("Avinguda Meritxell"))], type: .lineString)

    @Test func legacyFilters() throws {
        #expect(try filter(#"["==", "class", "primary"]"#).evaluate(road) == .bool(true))
        #expect(try filter(#"["!=", "class", "primary"]"#).evaluate(road) == .bool(false))
        #expect(try filter(#"["in", "class", "motorway", "primary"]"#).evaluate(road) == .bool(true))
        #expect(try filter(#"["!in", "class", "motorway", "primary"]"#).evaluate(road) == .bool(false))
        #expect(try filter(#"["has", "name:latin"]"#).evaluate(road) == .bool(true))
        #expect(try filter(#"["!has", "ref"]"#).evaluate(road) == .bool(true))
        #expect(try filter(#"["==", "$type", "LineString"]"#).evaluate(road) == .bool(true))
        #expect(try filter(#"["==", "$id", 42]"#).evaluate(road) == .bool(true))
        #expect(try filter(#"["<=", "rank", 3]"#).evaluate(road) == .bool(true))
        #expect(try filter(#"["all", ["==", "class", "primary"], ["none", [">", "rank", 5]]]"#).evaluate(road) == .bool(true))
        #expect(try filter(#"["any", ["==", "class", "minor"], ["<", "rank", 2]]"#).evaluate(road) == .bool(false))
        // A missing property is never equal, and ordering against it fails.
        #expect(try filter(#"["==", "brunnel", "bridge"]"#).evaluate(road) == .bool(false))
        #expect(try filter(#"[">", "missing", 1]"#).evaluate(road) == .bool(false))
    }

    @Test func expressionFilters() throws {
        #expect(try filter(#"["==", ["get", "class"], "primary"]"#).evaluate(road) == .bool(true))
        #expect(try filter(#"["match", ["get", "class"], ["motorway", "primary"], true, false]"#).evaluate(road) == .bool(true))
        #expect(try filter(#"["in", ["get", "class"], ["literal", ["primary", "trunk"]]]"#).evaluate(road) == .bool(true))
        #expect(try filter(#"["!", ["has", "ref"]]"#).evaluate(road) == .bool(true))
        #expect(try filter(#"["==", ["geometry-type"], "LineString"]"#).evaluate(road) == .bool(true))
        // Multi-part features answer the singular form, as the spec (v23) and both MapLibres do:
        // Positron's roads are filtered on "LineString", and most of them have several parts.
        for type in [GeometryType.lineString, .polygon, .point] {
            let multi = feature([], type: type, parts: 3)
            #expect(multi.feature?.parts.count == 3)
            #expect(try expr(#"["geometry-type"]"#).evaluate(multi) == .string(type.name))
            #expect(try filter(#"["==", "$type", "\#(type.name)"]"#).evaluate(multi) == .bool(true))
        }
        #expect(try filter(#"["all", [">=", ["zoom"], 14], ["<", ["get", "rank"], 10]]"#).evaluate(road) == .bool(true))
    }

    @Test func valuesAndInterpolation() throws {
        func at(_ zoom: Double, _ e: StyleExpression) -> StyleValue { e.evaluate(EvaluationContext(zoom: zoom)) }
        let linear = try expr(#"["interpolate", ["linear"], ["zoom"], 10, 1, 14, 5]"#)
        #expect(at(9, linear) == .number(1))
        #expect(at(12, linear) == .number(3))
        #expect(at(20, linear) == .number(5))
        // Exponential base 2 between 0 and 2: factor (2^1 − 1)/(2^2 − 1) = 1/3.
        let exponential = try expr(#"["interpolate", ["exponential", 2], ["zoom"], 0, 0, 2, 3]"#)
        #expect(at(1, exponential).number.map { abs($0 - 1) < 1e-12 } == true)
        let step = try expr(#"["step", ["zoom"], "a", 10, "b", 14, "c"]"#)
        #expect([at(9, step), at(10, step), at(13.9, step), at(15, step)] == [.string("a"), .string("b"), .string("b"), .string("c")])
        // Legacy zoom functions: numbers exponential (base 1 = linear), strings by interval.
        let stops = try expr(#"{"base": 1, "stops": [[10, 2], [12, 6]]}"#)
        #expect(at(11, stops) == .number(4))
        let interval = try expr(#"{"stops": [[0, "x"], [8, "y"]]}"#)
        #expect(at(9, interval) == .string("y"))
        #expect(at(7, interval) == .string("x"))
        let colors = try expr(##"["interpolate", ["linear"], ["zoom"], 0, "#000000", 10, "#ffffff"]"##)
        #expect(at(5, colors).color.map { abs($0.red - 0.5) < 1e-9 } == true)
        #expect(try expr(#"["concat", ["get", "name:latin"], " (", ["to-string", ["get", "rank"]], ")"]"#).evaluate(road) == .string("Avinguda Meritxell (3)"))
        #expect(try expr(#"["coalesce", ["get", "name:en"], ["get", "name:latin"]]"#).evaluate(road) == .string("Avinguda Meritxell"))
        #expect(try expr(#"["case", ["==", ["get", "class"], "primary"], 2, 1]"#).evaluate(road) == .number(2))
        #expect(try expr(#"["*", 2, ["+", 1, ["get", "rank"]]]"#).evaluate(road) == .number(8))
        #expect(try expr(#"["let", "r", ["get", "rank"], ["*", ["var", "r"], ["var", "r"]]]"#).evaluate(road) == .number(9))
        #expect(try expr(#"["upcase", "andorra"]"#).evaluate(road) == .string("ANDORRA"))
        let categorical = try expr(#"{"property": "class", "type": "categorical", "stops": [["primary", 5], ["minor", 1]], "default": 0}"#)
        #expect(categorical.evaluate(road) == .number(5))
    }

    /// An interpolation whose input is NaN is an evaluation error (the property's default),
    /// whatever its stops: with one stop it indexed past them (a fuzz finding).
    @Test func aNaNInputToAnInterpolationIsAnError() throws {
        let one = try expr(#"["interpolate", ["linear"], ["/", 0, 0], 3, 10]"#)
        let two = try expr(#"["interpolate", ["linear"], ["sqrt", -1], 0, 1, 10, 2]"#)
        #expect(one.evaluate(road) == .null && two.evaluate(road) == .null)
        #expect(try expr(#"["interpolate", ["linear"], ["zoom"], 3, 10]"#).evaluate(road) == .number(10))
    }

    /// Legacy zoom-and-property functions, as MapLibre converts them: a property function per
    /// zoom, linear between zooms for numbers and colours, steps for other values.
    @Test func zoomAndPropertyFunctions() throws {
        func at(_ zoom: Double, _ e: StyleExpression) -> StyleValue {
            var c = road
            c.zoom = zoom
            return e.evaluate(c)
        }
        // rank 3: at zoom 10 halfway from 2 to 6 (4), at zoom 14 from 10 to 14 (12); zoom 12: 8.
        let width = try expr(#"{"property": "rank", "stops": [[{"zoom": 10, "value": 1}, 2], [{"zoom": 10, "value": 5}, 6], [{"zoom": 14, "value": 1}, 10], [{"zoom": 14, "value": 5}, 14]]}"#)
        #expect(at(10, width) == .number(4) && at(12, width) == .number(8) && at(14, width) == .number(12) && at(18, width) == .number(12))
        // Categorical per zoom, colours interpolated between zooms.
        let colour = try expr(##"{"property": "class", "type": "categorical", "stops": [[{"zoom": 0, "value": "primary"}, "#000000"], [{"zoom": 10, "value": "primary"}, "#ffffff"]], "default": "#ff0000"}"##)
        #expect(at(5, colour).color.map { abs($0.red - 0.5) < 1e-9 && abs($0.blue - 0.5) < 1e-9 } == true)
        // Strings step between zooms.
        let text = try expr(#"{"property": "class", "type": "categorical", "stops": [[{"zoom": 0, "value": "primary"}, "a"], [{"zoom": 12, "value": "primary"}, "b"]]}"#)
        #expect(at(11.9, text) == .string("a") && at(12, text) == .string("b"))
        // Mixed stops, or object stops without a property, are errors.
        #expect(throws: (any Error).self) { try expr(#"{"property": "rank", "stops": [[{"zoom": 10, "value": 1}, 2], [12, 3]]}"#) }
        #expect(throws: (any Error).self) { try expr(#"{"stops": [[{"zoom": 10, "value": 1}, 2]]}"#) }
    }

    @Test func cssColours() {
        #expect(CSSColor.parse("#FDE293") == StyleColor(red: 253 / 255, green: 226 / 255, blue: 147 / 255))
        #expect(CSSColor.parse("#fff") == StyleColor(red: 1, green: 1, blue: 1))
        #expect(CSSColor.parse("rgba(10, 20, 30, 0.5)") == StyleColor(red: 10 / 255, green: 20 / 255, blue: 30 / 255, alpha: 0.5))
        let hsl = CSSColor.parse("hsl(0, 100%, 50%)")
        #expect(hsl == StyleColor(red: 1, green: 0, blue: 0))
        #expect(CSSColor.parse("hsla(120, 100%, 25%, 0.2)")?.alpha == 0.2)
        #expect(CSSColor.parse("transparent")?.alpha == 0)
        #expect(CSSColor.parse("not a colour") == nil)
        #expect(CSSColor.parse("#12345") == nil)
        // Fullwidth and other non-ASCII digits are not hex digits (they trapped once).
        #expect(CSSColor.parse("#\u{FF11}\u{FF12}\u{FF13}") == nil)
        #expect(CSSColor.parse("#١٢٣") == nil)
        #expect(CSSColor.parse("#ＡＢＣ") == nil)
    }

    /// Label text loses the white space and newlines at its ends, as MapLibre's: a name with
    /// no second-script name is one line.
    @Test func labelTextIsTrimmedOfEmptyLines() throws {
        let place = feature([("name:latin", .string("Andorra la Vella"))], type: .point)
        let field = try expr(#""{name:latin}\n{name:nonlatin}""#)
        let text = Basemap.text(field.evaluate(place), place.layer!, place.feature!)
        #expect(text == "Andorra la Vella\n")
        #expect(Basemap.trimmed(text) == "Andorra la Vella")
        #expect(Basemap.trimmed(" \n\tA\nB \r\n") == "A\nB")
        #expect(Basemap.trimmed("\n\n") == "")
        #expect(Basemap.trimmed("\u{00A0}A\u{00A0}") == "\u{00A0}A\u{00A0}", "MapLibre keeps no-break spaces")
    }

    /// A legacy "{token}" string loses the spaces at its ends as Foundation's
    /// `trimmingCharacters(in: .whitespaces)` trims them (Unicode's space separators and tab;
    /// not newlines, not zero-width spaces), without going through NSString.
    @Test func legacyTokenTextIsTrimmedOfSpacesAsFoundationTrims() {
        let samples = ["", " ", "  ", "x", " x ", "\t x\t", "\u{A0}Monaco\u{3000}", "\n x \n", "\u{2003}\u{200B}x\u{2009}",
                       " \u{301}x ", "\u{1680}\u{202F}\u{205F}a b\u{2000}", "\u{FEFF}x ", " 🇲🇨 ", "\u{85}x\u{2028}"]
        for sample in samples {
            #expect(Basemap.trimmedOfSpaces(sample) == sample.trimmingCharacters(in: .whitespaces),
                    "\(sample.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        // Scalar by scalar, the same set as Foundation's (the basic plane, where all its spaces
        // are, and a few beyond).
        let differing = (Array(0...0xFFFF) + [0x1F1F2, 0xE0020, 0x10FFFF]).compactMap(Unicode.Scalar.init).filter { Basemap.isSpace($0) != CharacterSet.whitespaces.contains($0) }
        #expect(differing.isEmpty, "\(differing.prefix(8).map { String($0.value, radix: 16) })")
        let place = feature([("name", .string("Monaco"))], type: .point)
        #expect(Basemap.text(.string("  {name}\u{A0}"), place.layer!, place.feature!) == "Monaco")
    }

    /// `let` bindings each concatenating the one before double a string per step: past 64 KiB
    /// the concatenation is an evaluation error (null), so 40 doublings of 16 bytes (16 TiB
    /// unbounded) end at once.
    @Test func concatenationIsBounded() throws {
        var json = #"["var", "v40"]"#
        for i in stride(from: 40, through: 1, by: -1) {
            json = #"["let", "v\#(i)", ["concat", ["var", "v\#(i - 1)"], ["var", "v\#(i - 1)"]], \#(json)]"#
        }
        json = #"["let", "v0", "0123456789abcdef", \#(json)]"#
        // Past the limit a step is null; the steps after it concatenate nothing.
        #expect(try expr(json).evaluate(EvaluationContext(zoom: 14)).text.isEmpty)
        // Below the limit it is the string: 12 doublings, 64 KiB exactly.
        var short = #"["var", "v12"]"#
        for i in stride(from: 12, through: 1, by: -1) {
            short = #"["let", "v\#(i)", ["concat", ["var", "v\#(i - 1)"], ["var", "v\#(i - 1)"]], \#(short)]"#
        }
        short = #"["let", "v0", "0123456789abcdef", \#(short)]"#
        #expect(try expr(short).evaluate(EvaluationContext(zoom: 14)).string?.utf8.count == StyleExpression.maxStringBytes)
    }

    /// `at` with an index no Int holds, or none at all, is null (it trapped in Int(Double) once).
    @Test func atOutOfAnyIntsRangeIsNull() throws {
        for index in ["1e20", "-1e20", "1.5e300", "2", "-1"] {
            #expect(try expr(#"["at", \#(index), ["literal", [1, 2]]]"#).evaluate(EvaluationContext(zoom: 14)) == .null, "\(index)")
        }
        #expect(try expr(#"["at", ["/", 0, 0], ["literal", [1, 2]]]"#).evaluate(EvaluationContext(zoom: 14)) == .null)
        #expect(try expr(#"["at", 1, ["literal", [1, 2]]]"#).evaluate(EvaluationContext(zoom: 14)) == .number(2))
    }

    @Test func unknownOperatorsAreErrorsWithTheirLine() {
        do {
            _ = try expr("[\n\"frobnicate\", 1]")
            Issue.record("parsed")
        } catch let error as ExpressionError {
            #expect(error.message.contains("\"frobnicate\""))
            #expect(error.location.line == 1)
        } catch {
            Issue.record("\(error)")
        }
        #expect(throws: ExpressionError.self) { try expr(#"["interpolate", ["linear"], ["zoom"], 10, 1, 5, 2]"#) }
        #expect(throws: ExpressionError.self) { try expr(#"["match", ["get", "x"], 1]"#) }
    }
}

@Suite struct StyleFormatTests {
    @Test func builtinStylesParseWithoutWarnings() throws {
        for name in BasemapStyle.builtinNames {
            let style = try #require(BasemapStyle.builtin(name))
            #expect(style.warnings == [], "\(name)")
            #expect(style.layers.count > 5)
        }
    }

    @Test func unsupportedThingsAreWarnedOnceAndSkipped() throws {
        let json = """
        {"version": 8, "sources": {"s": {"type": "vector", "url": "pmtiles://a.pmtiles"}, "g": {"type": "video", "urls": []}},
         "sprite": "mapbox://sprites/mapbox/bright-v9", "layers": [
          {"id": "h", "type": "hillshade", "source": "s"},
          {"id": "f", "type": "line", "source": "s", "source-layer": "water", "layout": {"line-sort-key": 1}, "paint": {"line-color": "#00f", "line-color-transition": {"duration": 300}}},
          {"id": "f2", "type": "line", "source": "s", "source-layer": "water", "layout": {"line-sort-key": 2}, "paint": {"line-color-transition": {"duration": 300}}},
          {"id": "odd", "type": "line", "source": "s", "source-layer": "x", "filter": ["within", {}]},
          {"id": "geo", "type": "line", "source": "g"},
          {"id": "c", "type": "fill", "source": "s", "paint": {"fill-color": ["config", "accent"]}}
        ]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "odd.json", directory: "/styles")
        #expect(style.sources["s"]?.location == "/styles/a.pmtiles")
        #expect(style.layers.map(\.id) == ["h", "f", "f2", "c"])
        #expect(style.warnings.count == 8, "\(style.warnings)")
        #expect(style.warnings.contains("layer 'f': paint property \"line-color-transition\" is not drawn by Terrapin; ignored"))
        #expect(style.warnings.contains { $0.contains("\"within\" takes a GeoJSON Polygon, MultiPolygon, Feature or FeatureCollection; the layer is skipped") })
        #expect(style.warnings.contains { $0.contains("\"video\", which Terrapin does not draw") })
        #expect(style.warnings.contains { $0.contains("\"config\" is not supported; the default is used") })
        #expect(style.warnings.contains { $0.contains("\"sprite\" is remote") })
        #expect(style.warnings.contains("layer 'h': hillshade layers need a raster-dem source; 's' is vector; not drawn"))
        #expect(style.layers.last?.property("fill-color") == nil)
        // An http(s) sprite is read by the load stage (through the render's HTTP client).
        let remote = try BasemapStyle.parse(Array(#"{"version": 8, "sprite": "https://example.com/sprite?key=k", "layers": []}"#.utf8), file: "r.json", directory: "/styles")
        #expect(remote.sprite == "https://example.com/sprite?key=k" && remote.warnings == [])
    }

    /// The root `light` is read (literals), the rest warned about with the default kept, and
    /// `fill-extrusion-vertical-gradient` is drawn (no warning).
    @Test func theRootLightIsRead() throws {
        let plain = try BasemapStyle.parse(Array(#"{"version": 8, "sources": {}, "layers": []}"#.utf8), file: "s.json", directory: ".")
        #expect(plain.light == .standard && plain.light.position == SIMD3(1.15, 210, 30) && plain.light.intensity == 0.5 && !plain.light.anchoredToMap)
        let json = """
        {"version": 8, "light": {"anchor": "map", "position": [1.5, 90, 80], "color": "#ff8000", "intensity": 0.3}, "sources": {"s": {"type": "vector"}},
         "layers": [{"id": "b", "type": "fill-extrusion", "source": "s", "source-layer": "building", "paint": {"fill-extrusion-vertical-gradient": false}}]}
        """
        let lit = try BasemapStyle.parse(Array(json.utf8), file: "lit.json", directory: ".")
        #expect(lit.warnings == [], "\(lit.warnings)")
        #expect(lit.light.anchoredToMap && lit.light.position == SIMD3(1.5, 90, 80) && lit.light.intensity == 0.3)
        #expect(abs(lit.light.color.x - 1) < 1e-9 && abs(lit.light.color.y - 128.0 / 255) < 1e-9 && lit.light.color.z == 0)
        #expect(lit.layers[0].property("fill-extrusion-vertical-gradient") != nil)
        let odd = try BasemapStyle.parse(Array(#"{"version": 8, "light": {"anchor": "sky", "position": [1, 2], "intensity": ["zoom"], "color": "nope", "spot": 1}, "sources": {}, "layers": []}"#.utf8),
                                         file: "odd.json", directory: ".")
        #expect(odd.light == .standard)
        #expect(odd.warnings.count == 5 && odd.warnings.allSatisfy { $0.hasSuffix("is not a literal Terrapin reads; the default is used") }, "\(odd.warnings)")
    }

    @Test func malformedStylesAreTypedErrorsWithTheirPath() {
        let cases: [(String, String)] = [
            ("{", "$"),
            (#"{"layers": 3}"#, "$.layers"),
            (#"{"layers": [{"type": "fill"}]}"#, "$.layers[0].id"),
            (#"{"layers": [{"id": "a", "type": "fill"}, {"id": "a", "type": "line"}]}"#, "$.layers[1].id"),
            (#"{"layers": [{"id": "a", "type": "polygon"}]}"#, "$.layers[0].type"),
            (#"{"sources": {"x": 1}, "layers": []}"#, "$.sources.x"),
        ]
        for (json, path) in cases {
            do {
                _ = try BasemapStyle.parse(Array(json.utf8), file: "bad.json", directory: ".")
                Issue.record("parsed \(json)")
            } catch {
                guard case .style(let file, let p, _, _) = error else { Issue.record("\(error)"); continue }
                #expect(file == "bad.json")
                #expect(p == path, "\(error)")
            }
        }
    }
}

extension StyleExpressionTests {
    /// Whether an expression reads the feature (MapLibre's feature-constant test): the zoom
    /// alone does not; a property, the id or the geometry anywhere inside does.
    @Test func whatReadsTheFeature() throws {
        for json in ["12", #"["interpolate", ["linear"], ["zoom"], 13, 10, 18, 13]"#, #"["step", ["zoom"], 1, 14, 2]"#,
                     #"["let", "z", ["zoom"], ["*", ["var", "z"], 2]]"#] {
            #expect(try !expr(json).readsFeature, "\(json)")
        }
        for json in [#"["get", "rank"]"#, #"["interpolate", ["linear"], ["zoom"], 13, ["case", ["has", "name"], 10, 9], 18, 13]"#,
                     #"["match", ["geometry-type"], "Point", 1, 2]"#, #"["+", ["id"], 1]"#, #"["step", ["zoom"], ["get", "a"], 14, 2]"#] {
            #expect(try expr(json).readsFeature, "\(json)")
        }
    }
}

@Suite struct StyleDomainCheckTests {
    /// Each failure is found where it happens: an index out of range at every zoom, a match's
    /// fallback for a class the style did not list, a filter that is not a boolean beyond z10;
    /// what works is not reported.
    @Test func expressionsAreEvaluatedOverWhatTheyCanReach() throws {
        let json = ##"""
        {"version": 8, "sources": {"s": {"type": "vector", "url": "x.pmtiles"}}, "layers": [
         {"id": "a", "type": "symbol", "source": "s", "source-layer": "places",
          "layout": {"symbol-sort-key": ["case", ["has", "sort_key"], ["get", "sort_key"], ["get", "min_zoom"]]}},
         {"id": "b", "type": "line", "source": "s", "source-layer": "roads",
          "paint": {"line-width": ["at", 1e20, ["literal", [1, 2]]], "line-color": ["match", ["get", "class"], "motorway", "#f00", "nope"],
                    "line-opacity": ["interpolate", ["linear"], ["get", "rank"], 1, 0.2, 10, 1]}},
         {"id": "c", "type": "fill", "source": "s", "source-layer": "water", "filter": ["step", ["zoom"], true, 10, "yes"]}
        ]}
        """##
        let style = try BasemapStyle.parse(Array(json.utf8), file: "check.json", directory: ".")
        let check = style.checkDomains()
        #expect(check.findings == [
            #"layer "b" line-color: at zoom 0 for a feature (LineString, class: "(another value)"), evaluates to "nope", not a colour (MapLibre then draws the property's default)"#,
            #"layer "b" line-width: at zoom 0, evaluates to null, not a number (MapLibre then draws the property's default)"#,
            #"layer "c" filter: at zoom 10, evaluates to "yes", not true or false (MapLibre then hides the feature)"#,
        ], "\(check.findings)")
        #expect(check.evaluations > 49 * 4)
    }

    @Test func theBuiltInStylesCheckClean() throws {
        for schema in TileSchema.allCases {
            for name in BasemapStyle.builtinNames {
                let style = try #require(BasemapStyle.builtin(name, schema: schema))
                let check = style.checkDomains()
                #expect(check.findings.isEmpty && check.evaluations > 1000, "\(name) \(schema): \(check.findings)")
            }
        }
    }

    @Test func aHugeStyleIsCheckedWithinItsBudget() throws {
        let layers = (0..<50).map { #"{"id": "l\#($0)", "type": "line", "source": "s", "source-layer": "roads", "paint": {"line-width": ["interpolate", ["linear"], ["get", "rank"], 1, 1, 10, 2]}}"# }
        let json = #"{"version": 8, "sources": {"s": {"type": "vector", "url": "x.pmtiles"}}, "layers": ["# + layers.joined(separator: ",") + "]}"
        let style = try BasemapStyle.parse(Array(json.utf8), file: "big.json", directory: ".")
        let check = style.checkDomains(maxEvaluations: 1000)
        #expect(check.evaluations <= 1000)
        #expect(check.findings.last?.hasPrefix("the check stopped after") == true)
    }
}

@Suite struct SupportedScriptTests {
    /// Every script renders legibly here (HarfBuzz, FriBidi), so a style that picks a name by
    /// `is-supported-script` (Protomaps') picks the local one, as MapLibre Native does.
    @Test func everyScriptIsSupported() throws {
        let pick = try expr(#"["case", ["is-supported-script", ["get", "name"]], ["get", "name"], ["get", "name:en"]]"#)
        let context = EvaluationContext(zoom: 10)
        for text in ["Andorra la Vella", "القاهرة", "תל אביב", "नई दिल्ली", "東京", "Αθήνα"] {
            #expect(try expr(#"["is-supported-script", "\#(text)"]"#).evaluate(context) == .bool(true), "\(text)")
        }
        #expect(try expr(#"["is-supported-script", 3]"#).evaluate(context) == .null)
        #expect(pick.readsName)
        let style = try BasemapStyle.parse(Array(#"{"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "l", "type": "symbol", "source": "s", "source-layer": "places", "layout": {"text-field": ["case", ["is-supported-script", ["get", "name"]], ["get", "name"], ["get", "name:en"]]}}]}"#.utf8), file: "s.json", directory: ".")
        #expect(style.warnings.isEmpty, "\(style.warnings)")
    }
}

/// The root `sky`: its sky and horizon colours are read (expressions of the zoom); the blends
/// and fog are warned about once each.
@Test func theRootSkyGivesTheSkysColours() throws {
    let json = ##"{"version": 8, "sources": {}, "layers": [], "sky": {"sky-color": "#199EF3", "horizon-color": ["interpolate", ["linear"], ["zoom"], 0, "#000000", 10, "#ffffff"], "fog-ground-blend": 1}}"##
    let style = try BasemapStyle.parse(Array(json.utf8), file: "sky.json", directory: ".")
    #expect(style.sky["sky-color"]?.evaluate(EvaluationContext(zoom: 3)).color == StyleColor(red: 0x19 / 255, green: 0x9E / 255, blue: 0xF3 / 255))
    #expect(style.sky["horizon-color"]?.evaluate(EvaluationContext(zoom: 5)).color == StyleColor(red: 0.5, green: 0.5, blue: 0.5))
    #expect(style.warnings == ["sky \"fog-ground-blend\" is not drawn by Terrapin; ignored"])
}

/// A view's zoom a few ulps off a whole zoom is that zoom: zoom 0 reached from a camera's range
/// (−10⁻¹⁰) still shows layers starting at 0, and a zoom just under a layer's maxzoom hides it.
@Test func zoomsWithinAMillionthOfAWholeZoomAreIt() throws {
    let json = #"{"version": 8, "sources": {}, "layers": [{"id": "b", "type": "background", "minzoom": 0, "maxzoom": 3}]}"#
    let layer = try #require(try BasemapStyle.parse(Array(json.utf8), file: "z.json", directory: "/").layers.first)
    #expect(layer.shows(at: -1e-10) && layer.shows(at: 0) && layer.shows(at: 2.9))
    #expect(!layer.shows(at: 3 - 1e-10) && !layer.shows(at: 3) && !layer.shows(at: -0.01))
}

/// `sprite` as an array of {id, url}: the "default" sheet's icons keep their names, another
/// sheet's are named "id:name"; a remote sheet other than the default is warned about.
@Test func spriteArraysNameOtherSheetsIcons() throws {
    let folder = fixtures + "/basemap/sprites"
    let json = #"{"version": 8, "sources": {}, "layers": [], "sprite": [{"id": "default", "url": "icons"}, {"id": "more", "url": "icons"}, {"id": "far", "url": "https://example.com/sprite"}, {"url": "nameless"}]}"#
    let style = try BasemapStyle.parse(Array(json.utf8), file: "sprites.json", directory: folder)
    #expect(style.sprite == folder + "/icons")
    #expect(style.extraSprites.map(\.id) == ["more"] && style.extraSprites.first?.path == folder + "/icons")
    #expect(style.warnings.contains { $0.contains("sprite 'far' is remote") } && style.warnings.contains { $0.contains("needs an \"id\" and a \"url\"") }, "\(style.warnings)")
    let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
    let sheet = try #require(basemap.sprite)
    let name = try #require(sheet.icons.keys.filter { !$0.contains(":") }.sorted().first)
    #expect(sheet.icon(name) != nil && sheet.icon("more:" + name) != nil && sheet.icon("far:" + name) == nil)
    #expect(sheet.icon("more:" + name)?.0.data == sheet.icon(name)?.0.data)
}

/// A style read from a server names nothing on this machine: its absolute paths are on its
/// server, as a browser resolves them, and `file://` is left out with a warning (a served style
/// could otherwise draw a file of the machine rendering it into the image).
@Test func aStyleFromAServerNamesNothingOnThisMachine() throws {
    let json = #"""
    {"version": 8, "sprite": "/etc/passwd",
     "sources": {"abs": {"type": "vector", "url": "pmtiles:///srv/local.pmtiles"},
                 "rel": {"type": "vector", "url": "pmtiles://tiles/x.pmtiles"},
                 "file": {"type": "vector", "url": "file:///srv/local.pmtiles"},
                 "geo": {"type": "geojson", "data": "file:///srv/secret.geojson"},
                 "near": {"type": "geojson", "data": "/data/points.geojson"}},
     "layers": [{"id": "bg", "type": "background"}]}
    """#
    let remote = try BasemapStyle.parse(Array(json.utf8), file: "https://maps.example.org/styles/a.json", directory: "https://maps.example.org/styles")
    #expect(remote.sprite == "https://maps.example.org/etc/passwd")
    #expect(remote.sources["abs"]?.location == "https://maps.example.org/srv/local.pmtiles")
    #expect(remote.sources["rel"]?.location == "https://maps.example.org/styles/tiles/x.pmtiles")
    #expect(remote.sources["file"] == nil && remote.sources["geo"] == nil)
    if case .file(let near)? = remote.sources["near"]?.data { #expect(near == "https://maps.example.org/data/points.geojson") } else { Issue.record("near") }
    #expect(remote.warnings.filter { $0.contains("names a file on this machine, which a style read from a server may not") }.count == 2, "\(remote.warnings)")
    // The same style from a folder: its paths are files.
    let local = try BasemapStyle.parse(Array(json.utf8), file: "a.json", directory: "/styles")
    #expect(local.sprite == "/etc/passwd")
    #expect(local.sources["abs"]?.location == "/srv/local.pmtiles" && local.sources["file"]?.location == "/srv/local.pmtiles")
    #expect(local.sources["rel"]?.location == "/styles/tiles/x.pmtiles")
}
