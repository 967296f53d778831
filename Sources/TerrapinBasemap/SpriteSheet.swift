// A style's sprite sheet: `NAME.json` (icon name → x, y, width, height, pixelRatio) and
// `NAME.png`, with `NAME@2x.*` preferred when the image is drawn at scale 2 or more. Read once
// per basemap; every icon's rectangle is checked against the image before it is used.
//
// When the style's `sprite` names a folder instead, it is a folder of SVG icons as POI icon
// sets ship (Maki, Temaki): `NAME.svg` is the icon NAME, rasterised by librsvg at pixel ratio 2
// (sharp at 2×, scaled down at 1×). An icon that does not read is left out with a warning.
import TerrapinCodecs
import TerrapinIO
import TerrapinPNG
import TerrapinRaster

public struct SpriteSheet: Sendable {
    public struct Icon: Sendable, Equatable {
        public let x: Int, y: Int, width: Int, height: Int
        public let pixelRatio: Double
        /// How the icon stretches when fitted to its text (`stretchX`, `stretchY`, `content`).
        public var stretch: IconStretch? = nil
        /// A signed distance field (`"sdf": true`): its alpha is the distance to the shape's edge,
        /// and `icon-color` and the halo colour it (`Basemap.sdfIcon`).
        public var sdf = false
    }
    public let icons: [String: Icon]
    /// Cut-out icons, made once.
    let pieces: [String: Pixmap]
    /// What was left out (SVG icons that did not read).
    public var warnings: [String] = []

    public static let maxJSONBytes = 4 * 1024 * 1024
    public static let maxIcons = 10_000

    /// Reads `base.json` and `base.png` (`base@2x.*` when `retina` and present).
    public static func load(_ base: String, retina: Bool, files: FileAccess = .unrestricted) throws(BasemapError) -> SpriteSheet {
        let remote = NetworkAccess.isURL(base)
        // A URL's query (an API key) stays at its end: base@2x.json?key=….
        func named(_ suffix: String) -> String {
            guard remote, let q = base.firstIndex(of: "?") else { return base + suffix }
            return base[..<q] + suffix + base[q...]
        }
        // Without the query, for messages.
        func shown(_ suffix: String) -> String { remote ? String(base.prefix { $0 != "?" }) + suffix : base + suffix }
        if !remote, let folder = try? files.openDirectory(base) { return svgFolder(folder, pixelBudget: maxSVGPixels) }
        var index: [UInt8]?, prefix = ""
        if retina, remote {
            // One request tells whether the server has the @2x sheet.
            if let j = try? files.read(named("@2x.json"), limit: maxJSONBytes) { index = j; prefix = "@2x" }
        } else if retina, files.isReadable(base + "@2x.json"), files.isReadable(base + "@2x.png") {
            prefix = "@2x"
        }
        let png: [UInt8]
        do throws(FileError) {
            if index == nil { index = try files.read(named(prefix + ".json"), limit: maxJSONBytes) }
            png = try files.read(named(prefix + ".png"), limit: 64 * 1024 * 1024)
        } catch {
            throw .style(file: shown(prefix + ".json"), path: "$", location: nil, message: error.description)
        }
        let json = index ?? []
        prefix = shown(prefix)
        let image: Pixmap
        do { image = try RasterImage.decode(png, source: prefix + ".png", limits: PNGDecodingLimits(maxWidth: 8192, maxHeight: 8192, maxPixels: 8192 * 8192)) } catch {
            throw .style(file: prefix + ".png", path: "$", location: nil, message: String(describing: error))
        }
        return try parse(json, image: image, file: prefix + ".json")
    }

    /// A sprite index (`json`) over its decoded `image`; `file` names the index in errors.
    /// Names for the same rectangle share one cut-out; distinct rectangles together may cover
    /// no more pixels than the image has (10,000 overlapping rectangles of an 8192² image
    /// would otherwise be 2.5 TB of copies).
    public static func parse(_ json: [UInt8], image: Pixmap, file: String) throws(BasemapError) -> SpriteSheet {
        let root: JSONNode
        do { root = try JSONParser.parse(json) } catch {
            throw .style(file: file, path: "$", location: error.location, message: error.message)
        }
        guard case .object(let members) = root.value else {
            throw .style(file: file, path: "$", location: root.location, message: "a sprite index is an object of icons")
        }
        guard members.count <= maxIcons else {
            throw .style(file: file, path: "$", location: root.location, message: "\(members.count) icons is more than \(maxIcons)")
        }
        var icons: [String: Icon] = [:], pieces: [String: Pixmap] = [:]
        // Each distinct rectangle cut out once (an alias shares its pixels).
        var cut: [[Int]: Pixmap] = [:]
        var covered = 0
        for m in members {
            guard case .object(let fields) = m.value.value else { continue }
            func number(_ k: String) -> Double? {
                guard case .number(let v)? = fields.first(where: { $0.key == k })?.value.value, v.isFinite else { return nil }
                return v
            }
            guard let x = number("x"), let y = number("y"), let w = number("width"), let h = number("height"),
                  x >= 0, y >= 0, w >= 1, h >= 1, x + w <= Double(image.width), y + h <= Double(image.height) else {
                throw .style(file: file, path: "$.\(m.key)", location: m.value.location,
                             message: "the icon's rectangle is not inside the \(image.width)x\(image.height) sprite image")
            }
            var icon = Icon(x: Int(x), y: Int(y), width: Int(w), height: Int(h), pixelRatio: max(0.25, min(8, number("pixelRatio") ?? 1)))
            icon.stretch = IconStretch(fields, width: Double(icon.width), height: Double(icon.height))
            if case .bool(true)? = fields.first(where: { $0.key == "sdf" })?.value.value { icon.sdf = true }
            icons[m.key] = icon
            let rect = [icon.x, icon.y, icon.width, icon.height]
            if let same = cut[rect] { pieces[m.key] = same; continue }
            covered += icon.width * icon.height
            guard covered <= image.width * image.height else {
                throw .style(file: file, path: "$.\(m.key)", location: m.value.location,
                             message: "the icons' rectangles cover more pixels than the \(image.width)x\(image.height) sprite image has (overlapping rectangles)")
            }
            var piece = Pixmap(width: icon.width, height: icon.height)!
            for row in 0..<icon.height {
                for col in 0..<icon.width { piece[col, row] = image[icon.x + col, icon.y + row] }
            }
            pieces[m.key] = piece
            cut[rect] = piece
        }
        return SpriteSheet(icons: icons, pieces: pieces)
    }

    /// Limits of an SVG icon folder: icons, bytes a file, pixels a side and pixels in all.
    public static let maxSVGIconBytes = 1 << 20
    public static let maxSVGIconSide = 512
    public static let maxSVGPixels = 64 << 20

    /// The icons of a folder of SVG files, each drawn at pixel ratio 2; names sorted, so the
    /// same folder gives the same sheet.
    public static func svgFolder(_ folder: OpenDirectory, pixelBudget: Int) -> SpriteSheet {
        var icons: [String: Icon] = [:], pieces: [String: Pixmap] = [:], warnings: [String] = []
        var pixels = 0
        let names = folder.names(limit: maxIcons + 1).filter { $0.lowercased().hasSuffix(".svg") }.sorted()
        if names.count > maxIcons { warnings.append("'\(folder.path)' has more than \(maxIcons) SVG icons; the first \(maxIcons) by name are used") }
        let limits = SVGLimits(maxFileBytes: maxSVGIconBytes, maxSide: maxSVGIconSide, maxPixels: maxSVGIconSide * maxSVGIconSide)
        for file in names.prefix(maxIcons) {
            let name = String(file.dropLast(4))
            do {
                let bytes = try folder.open(file).readAll(limit: maxSVGIconBytes)
                let document = try SVGDocument(bytes, source: "'\(folder.path)/\(file)'", limits: limits)
                let w = max(1, Int((document.width * 2).rounded())), h = max(1, Int((document.height * 2).rounded()))
                // Each icon's own limits first (at most 512² pixels drawn), then the folder's.
                let piece = try document.rasterize(width: w, height: h)
                guard pixels + w * h <= pixelBudget else {
                    warnings.append("the SVG icons of '\(folder.path)' are over \(pixelBudget) pixels in all; '\(name)' and later icons are left out")
                    break
                }
                pieces[name] = piece
                icons[name] = Icon(x: 0, y: 0, width: w, height: h, pixelRatio: 2)
                pixels += w * h
            } catch {
                warnings.append("icon '\(name)' is left out: \(error)")
            }
        }
        var sheet = SpriteSheet(icons: icons, pieces: pieces)
        sheet.warnings = warnings
        return sheet
    }

    /// This sheet with `other`'s icons added, each named `prefix` + its name (a sprite array's
    /// sheet "id": "id:name"); at most `maxIcons` in all, the first kept.
    func adding(_ other: SpriteSheet, prefix: String) -> SpriteSheet {
        var icons = self.icons, pieces = self.pieces
        for name in other.icons.keys.sorted() where icons.count < Self.maxIcons {
            icons[prefix + name] = other.icons[name]
            pieces[prefix + name] = other.pieces[name]
        }
        var merged = SpriteSheet(icons: icons, pieces: pieces)
        merged.warnings = warnings
        return merged
    }

    /// Largest side of an added image (`AddedImage`), in pixels, and most pixels of all of a
    /// style's added images together (64 MiB decoded).
    public static let maxAddedImageSide = 2048
    public static let maxAddedImagePixels = 16 << 20

    /// This sheet with `image` added as icon `name` (replacing one of that name), as MapLibre's
    /// `addImage` adds it.
    func adding(_ image: Pixmap, name: String, pixelRatio: Double, sdf: Bool) -> SpriteSheet {
        var icons = self.icons, pieces = self.pieces
        var icon = Icon(x: 0, y: 0, width: image.width, height: image.height, pixelRatio: max(0.25, min(8, pixelRatio.isFinite ? pixelRatio : 1)))
        icon.sdf = sdf
        guard icons[name] != nil || icons.count < Self.maxIcons else { return self }
        icons[name] = icon
        pieces[name] = image
        var merged = SpriteSheet(icons: icons, pieces: pieces)
        merged.warnings = warnings
        return merged
    }

    /// An icon's pixels and its pixel ratio, or nil.
    public func icon(_ name: String) -> (Pixmap, Double)? {
        guard let piece = pieces[name], let icon = icons[name] else { return nil }
        return (piece, icon.pixelRatio)
    }
}

/// Which parts of a sprite icon stretch when `icon-text-fit` fits it to its text (the sprite
/// JSON's `stretchX` and `stretchY`: ranges of the icon's pixels, the rest keeping its size;
/// `content`: the box, in its pixels, that the text's box is fitted to). Ranges outside the
/// icon, reversed or overlapping are left out; at most `maxZones` a direction.
public struct IconStretch: Sendable, Equatable {
    public var x: [[Double]]
    public var y: [[Double]]
    /// Left, top, right, bottom.
    public var content: [Double]?
    /// How the fitted icon follows its text across and down (the sprite's `textFitWidth` and
    /// `textFitHeight`): "stretchOrShrink" (the default: the text's box exactly),
    /// "stretchOnly" (never narrower than the content's proportions allow) or "proportional"
    /// (the content's proportions kept).
    public var textFitWidth = "stretchOrShrink"
    public var textFitHeight = "stretchOrShrink"

    public init(x: [[Double]] = [], y: [[Double]] = [], content: [Double]? = nil, textFitWidth: String = "stretchOrShrink", textFitHeight: String = "stretchOrShrink") {
        (self.x, self.y, self.content, self.textFitWidth, self.textFitHeight) = (x, y, content, textFitWidth, textFitHeight)
    }

    /// Most stretch zones kept a direction. Sprites use one to three; eight keep a fitted icon
    /// to at most 17 × 17 pieces, each cut and drawn per label.
    public static let maxZones = 8

    /// The zones of `given` that are pairs inside `0…size`, in order and apart, the first
    /// `maxZones` of them; the rest are left out.
    public static func zones(_ given: [[Double]], within size: Double) -> [[Double]] {
        var out: [[Double]] = []
        for z in given where out.count < maxZones && z.count == 2 && z[0] >= (out.last?[1] ?? 0) && z[0] < z[1] && z[1] <= size { out.append(z) }
        return out
    }

    /// From an icon's members in the sprite JSON; nil when it says none of the three.
    init?(_ fields: [JSONMember], width: Double, height: Double) {
        func numbers(_ node: JSONNode) -> [Double]? {
            guard case .array(let items) = node.value else { return nil }
            let values = items.compactMap { item -> Double? in if case .number(let v) = item.value, v.isFinite { v } else { nil } }
            return values.count == items.count ? values : nil
        }
        func zones(_ key: String, _ size: Double) -> [[Double]] {
            guard let node = fields.first(where: { $0.key == key })?.value, case .array(let items) = node.value else { return [] }
            return Self.zones(items.prefix(1_000).compactMap(numbers), within: size)
        }
        x = zones("stretchX", width)
        y = zones("stretchY", height)
        if let node = fields.first(where: { $0.key == "content" })?.value, let box = numbers(node), box.count == 4,
           box[0] >= 0, box[1] >= 0, box[0] < box[2], box[1] < box[3], box[2] <= width, box[3] <= height {
            content = box
        } else {
            content = nil
        }
        for (key, value) in [("textFitWidth", \IconStretch.textFitWidth), ("textFitHeight", \IconStretch.textFitHeight)] {
            if case .string(let fit)? = fields.first(where: { $0.key == key })?.value.value, ["stretchOrShrink", "stretchOnly", "proportional"].contains(fit) {
                self[keyPath: value] = fit
            }
        }
        if x.isEmpty && y.isEmpty && content == nil && textFitWidth == "stretchOrShrink" && textFitHeight == "stretchOrShrink" { return nil }
    }
}

extension SpriteSheet {
    /// How an icon stretches, when its sprite entry says.
    public func stretch(_ name: String) -> IconStretch? { icons[name]?.stretch }
    /// Whether icon `name` is a signed distance field.
    public func isSDF(_ name: String) -> Bool { icons[name]?.sdf ?? false }
}
