// The symbols behind `Image(systemName:)`: Terrapin's own 25 drawings (Symbols.swift), then
// the SF Symbols names of `SymbolMap` drawn from the Material Icons font (Debian
// fonts-material-design-icons-iconfont, Apache-2.0). Each glyph's outline is read once from the
// font and placed on the same 24 × 24 grid as the drawings: Material's em is that grid
// (ascent = em, descent 0), so a glyph keeps its designed padding.
//
// `.circle` names draw the glyph at 58 % inside a ring; `.circle.fill` names cut it out of a
// disc (even-odd, so the glyph's own counters show the disc again, as SF Symbols do).
// An unknown name is an error that suggests names by meaning first (the words each symbol is
// listed with, so "tent" finds the camping symbols), then by spelling.
import TerrapinGeometry
import TerrapinIO
import TerrapinRaster
import TerrapinTypography

enum SymbolLibrary {
    /// The icon font's family, as fontconfig names it.
    static let fontFamily = "Material Icons"
    static let fontPackage = "fonts-material-design-icons-iconfont"

    enum Form: String { case glyph, ring, disc }

    struct Entry {
        let name: String
        let glyphName: String
        let codepoint: UInt32
        let form: Form
        let words: [String]
    }

    /// The map's entries by name, each line of `SymbolMap` expanded to its variants (parsed once).
    static let entries: [String: Entry] = {
        var result: [String: Entry] = [:]
        for line in SymbolMap.table.split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count == 7, let plainPoint = UInt32(f[3], radix: 16), let fillPoint = UInt32(f[5], radix: 16) else { continue }
            let base = String(f[0]), plain = String(f[2]), fill = String(f[4]), words = f[6].split(separator: " ").map(String.init)
            var variants = [(base, plain, plainPoint, Form.glyph)]
            if f[1].contains("f") { variants.append((base + ".fill", fill, fillPoint, .glyph)) }
            if f[1].contains("c") { variants += [(base + ".circle", plain, plainPoint, .ring), (base + ".circle.fill", fill, fillPoint, .disc)] }
            for (name, glyph, point, form) in variants {
                result[name] = Entry(name: name, glyphName: glyph, codepoint: point, form: form, words: words)
            }
        }
        return result
    }()

    /// Every name `Image(systemName:)` knows, sorted.
    static let names: [String] = Set(Symbols.all.keys).union(entries.keys).sorted()

    static func contains(_ name: String) -> Bool { Symbols.all[name] != nil || entries[name] != nil }

    private static let built = Locked<[String: Symbol]>([:])

    /// The symbol for a name: a drawing of Terrapin's own, else the icon font's glyph.
    static func symbol(named name: String) throws -> Symbol {
        if let own = Symbols.all[name] { return own }
        guard let entry = entries[name] else { throw ViewError.unknownSymbol(name, closest: closest(to: name)) }
        if let cached = built.withLock({ $0[name] }) { return cached }
        let face: FontFace
        do { face = try FontLibrary.shared.face(for: FontRequest(family: fontFamily)) } catch {
            throw ViewError.symbolFontMissing(name, package: fontPackage)
        }
        guard let scalar = Unicode.Scalar(entry.codepoint), let glyph = face.glyph(for: scalar) else {
            throw ViewError.symbolFontMissing(name, package: fontPackage)
        }
        let symbol = make(face.outline(glyph), unitsPerEm: face.unitsPerEm, form: entry.form)
        built.withLock { $0[name] = symbol }
        return symbol
    }

    /// A glyph outline (font units, y down, baseline 0, em above it) on the 24-unit grid, in its form.
    static func make(_ outline: Path, unitsPerEm: Int, form: Form) -> Symbol {
        let s = 24 / Double(max(1, unitsPerEm))
        let onGrid = Transform.scale(s).concatenating(.translation(0, 24))
        switch form {
        case .glyph:
            return Symbol(parts: [(outline.transformed(by: onGrid), .nonZero)])
        case .ring, .disc:
            let inner = onGrid.concatenating(.translation(-12, -12)).concatenating(.scale(0.58)).concatenating(.translation(12, 12))
            var ring = PathBuilder()
            ring.addCircle(center: Point(12, 12), radius: 11)
            if form == .ring {
                ring.addCircle(center: Point(12, 12), radius: 9.4)
                return Symbol(parts: [(ring.build(), .evenOdd), (outline.transformed(by: inner), .nonZero)])
            }
            ring.addPath(outline.transformed(by: inner))
            return Symbol(parts: [(ring.build(), .evenOdd)])
        }
    }

    /// Maki icon names (simplestyle-spec's `marker-symbol`, Mapbox's POI set) → the symbol that
    /// draws the same thing. Names with no honest match (cemetery, castle, ice cream…) are absent.
    static let maki: [String: String] = [
        "airfield": "airplane", "airport": "airplane", "heliport": "airplane", "alcohol-shop": "wineglass.fill", "bar": "wineglass.fill",
        "beer": "mug.fill", "aquarium": "fish.fill", "art-gallery": "paintpalette.fill", "attraction": "sparkles", "bakery": "birthday.cake.fill",
        "bank": "building.columns.fill", "beach": "beach.umbrella.fill", "bicycle": "bicycle", "bicycle-share": "bicycle",
        "bus": "bus.fill", "cafe": "cup.and.saucer.fill", "campsite": "tent.fill", "car": "car.fill", "car-rental": "car.2.fill",
        "car-repair": "wrench.adjustable.fill", "charging-station": "ev.charger.fill", "cinema": "film.fill", "clothing-store": "tshirt.fill",
        "college": "graduationcap.fill", "danger": "exclamationmark.triangle.fill", "doctor": "stethoscope", "dog-park": "pawprint.fill",
        "drinking-water": "drop.fill", "embassy": "flag.fill", "emergency-phone": "phone.fill", "entrance": "door.left.hand.open",
        "fast-food": "takeoutbag.and.cup.and.straw.fill", "ferry": "ferry.fill", "fire-station": "flame.fill", "fitness-centre": "dumbbell.fill",
        "florist": "leaf.fill", "fuel": "fuelpump.fill", "gaming": "gamecontroller.fill", "garden": "leaf.fill", "gift": "gift.fill",
        "globe": "globe", "golf": "figure.golf", "grocery": "cart.fill", "hairdresser": "scissors", "harbor": "sailboat.fill",
        "hardware": "hammer.fill", "heart": "heart.fill", "historic": "building.columns.fill", "home": "house.fill", "hospital": "cross.fill",
        "information": "info.circle.fill", "laundry": "washer.fill", "library": "books.vertical.fill", "lodging": "bed.double.fill",
        "marker": "mappin", "monument": "building.columns.fill", "mountain": "mountain.2.fill", "museum": "building.columns.fill",
        "music": "music.note", "park": "tree.fill", "parking": "parkingsign", "parking-garage": "car.garage", "pharmacy": "pills.fill",
        "police": "shield.fill", "post": "envelope.fill", "prison": "lock.fill", "rail": "train.side.front.car", "rail-light": "lightrail.fill",
        "rail-metro": "tram.fill.tunnel", "religious-buddhist": "building.temple.buddhist.fill", "religious-christian": "building.church.fill",
        "religious-jewish": "building.synagogue.fill", "religious-muslim": "building.mosque.fill", "restaurant": "fork.knife",
        "school": "graduationcap.fill", "shelter": "house.lodge.fill", "shop": "bag.fill", "skiing": "figure.skiing.downhill",
        "soccer": "soccerball", "stadium": "sportscourt.fill", "star": "star.fill", "swimming": "figure.pool.swim", "telephone": "phone.fill",
        "tennis": "tennisball.fill", "theatre": "theatermasks.fill", "toilet": "toilet.fill", "town-hall": "building.columns.fill",
        "viewpoint": "binoculars.fill", "volcano": "mountain.2.fill", "water": "drop.fill", "waterfall": "water.waves", "wetland": "water.waves",
        "zoo": "pawprint.fill",
    ]

    /// Names close to `name`: those sharing meaning (words of the name against each symbol's
    /// words and name parts) first, then spelling; at most `count`.
    static func closest(to name: String, count: Int = 3) -> [String] {
        let name = String(name.prefix(64)).lowercased()   // bounded work for any name
        let ignored: Set<String> = ["fill", "circle", "square", "and", "the", "of"]
        let words = Set(name.split(whereSeparator: { $0 == "." || $0 == "_" || $0 == "-" || $0 == " " }).map(String.init)).subtracting(ignored)
        func meaning(_ candidate: String) -> Int {
            let parts = Set(candidate.split(separator: ".").map(String.init)).subtracting(ignored)
            let listed = Set(entries[candidate]?.words ?? [])
            var score = 0
            for w in words {
                // The name's own parts weigh most, then the words it is listed with; a word that
                // begins a part or a listed word ("parking" in parkingsign) counts a little.
                if parts.contains(w) { score += 3 } else if w.count >= 4, parts.contains(where: { $0.hasPrefix(w) || (w.hasPrefix($0) && $0.count >= 4) }) { score += 2 }
                if listed.contains(w) { score += 2 } else if w.count >= 4, listed.contains(where: { $0.hasPrefix(w) }) { score += 1 }
            }
            return score
        }
        // Equal meaning: the closer spelling, then the shorter (base) name.
        let scored = names.map { ($0, meaning($0), Symbols.distance($0, name)) }
        return scored.sorted { a, b in
            if a.1 != b.1 { return a.1 > b.1 }
            return (a.2, a.0.count, a.0) < (b.2, b.0.count, b.0)
        }.prefix(count).map(\.0)
    }
}
