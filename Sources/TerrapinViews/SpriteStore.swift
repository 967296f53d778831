// Sprite reuse inside one render: a solid-colour shape drawn many times (the same pin, the
// same capsule behind labels of one width) is rasterised once as a coverage mask and
// composited at whole-pixel offsets in its colour.
//
// Design contract:
// - The key is everything the coverage depends on: the shape (`ShapeIdentity`: its type and
//   parameters, a Hashable value, or else every path element relative to the view's own
//   origin), the size it is drawn at, fill or stroke width, the device scale and the sub-pixel
//   phase of the view's device origin in 1/8 px steps (as glyph caches keep glyphs at a few
//   sub-pixel phases). Colour is not in it: a mask is shared by every colour.
// - The first drawing of a shape draws directly (most content is drawn once, and a mask would
//   only cost); the second rasterises the mask at its phase step and composites it through the
//   same blend as a direct fill; it and later ones stand at most 1/16 px from where a direct
//   drawing would (up to a level or two of edge coverage). Marker3D sprites snap to whole
//   pixels; this is finer.
// - Only pure scale-and-translate transforms qualify (a rotated view draws directly), and only
//   when the caller supplies a store (MapPainter does, per render); a view rendered alone
//   draws directly, as before.
// - A ZStack of nothing but solid shapes (a pin: body, outline, dot) is one premultiplied
//   colour sprite instead (`drawGroup`), keyed by every shape's name, place, size, colours and
//   stroke: one pass over the pixels instead of one per shape (S2's paint 93 → 80–84 ms).
//   Compositing the group at once differs by up to 1/255 where its shapes overlap at an edge;
//   a single shape keeps its exact colour-free mask.
// - The store holds at most `byteLimit` bytes of masks and sprites; past it, drawings are direct.
// Rejected: sprites of whole marker views (each label differs, so S1 reuses nothing).
import TerrapinGeometry
import TerrapinRaster
import TerrapinTypography

/// Coverage masks shared by the views drawn in one render (not thread-safe: one per render).
public final class SpriteStore {
    struct Mask {
        let sprite: CoverageSprite
        /// Where the mask's top-left lands relative to the integer part of the device origin.
        let dx: Int, dy: Int
    }
    /// Drawings served from a mask made earlier, masks made, and shapes seen once (drawn directly).
    public private(set) var hits = 0, misses = 0, seen = 0

    /// Sub-pixel positions told apart (per axis): shapes within 1/(2·steps) px of a step share
    /// its mask. Default 8.
    public let phaseSteps: Int

    /// The render's glyph masks, looked up without the shared cache's lock.
    public let glyphs = GlyphFrontCache()

    /// Bytes the masks and sprites made may hold; past it no more are made (those drawings
    /// draw directly), so no render grows the store without bound. Default 64 MiB.
    public let byteLimit: Int

    public init(phaseSteps: Int = 8, byteLimit: Int = 64 << 20) {
        self.phaseSteps = max(1, min(1 << 16, phaseSteps))
        self.byteLimit = max(0, byteLimit)
    }

    /// A key under construction.
    struct Key {
        var words: [UInt64] = []
        mutating func add(_ v: Double) { words.append(v.bitPattern) }
        mutating func add(_ v: UInt64) { words.append(v) }
        mutating func add(_ c: RGBAColor) {
            words.append(UInt64(c.red.bitPattern)); words.append(UInt64(c.green.bitPattern))
            words.append(UInt64(c.blue.bitPattern)); words.append(UInt64(c.alpha.bitPattern))
        }
        mutating func add(_ path: Path) {
            words.append(UInt64(path.elements.count))
            for e in path.elements {
                switch e {
                case .move(let p): words.append(1); add(p.x); add(p.y)
                case .line(let p): words.append(2); add(p.x); add(p.y)
                case .quad(let c, let p): words.append(3); add(c.x); add(c.y); add(p.x); add(p.y)
                case .cubic(let c1, let c2, let p): words.append(4); add(c1.x); add(c1.y); add(c2.x); add(c2.y); add(p.x); add(p.y)
                case .close: words.append(5)
                }
            }
        }
    }

    /// What a mask is made from, when it is made: the outline in the view's own space, its
    /// bounds, how far (points) the drawing spills outside them (stroke, miters), and the drawing.
    struct Shape {
        let bounds: Rect
        let reach: Double
        let draw: (Canvas) -> Void
    }

    /// A key's history: drawn once (directly), its mask or sprite made, or none to be had (no
    /// outline, too large, or the store is full).
    enum Reuse<T> {
        case seen
        case made(T)
        case refused
    }
    /// Single shapes by their full key: the shape's name, fill or stroke, the size it is drawn
    /// at, the stroke width, the device scale and the phase step.
    private var masks = WordTable<Reuse<Mask>>()
    /// Groups by each shape's name, place and size relative to the group's origin, fill and
    /// stroke (colours included), with the scale and the phase step.
    private var groups = WordTable<Reuse<(sprite: Sprite, dx: Int, dy: Int)>>()
    /// The words of the key being looked up, kept between lookups so that a lookup allocates
    /// nothing (plain words: names made of `AnyHashable`s compared through the runtime's casts
    /// were a fifth of a 10,000-marker paint).
    private var scratch = Key()
    /// Hashable shape values (`ShapeIdentity.value`), by the number that names each in keys.
    private var values: [AnyHashable: UInt64] = [:]
    /// A list `ZStackNode` collects its shapes into, kept between drawings.
    var shapeList: [(node: ShapeNode, rect: Rect)] = []

    /// Appends `name` to `key`: a tag and the words that follow it, so a key reads back in one
    /// way only. False for no name (a node's identity is read in place, not copied).
    @discardableResult
    private func addName(_ name: ShapeIdentity?, to key: inout Key) -> Bool {
        switch name {
        case nil:
            return false
        case .type(let type, let word)?:
            Self.addTypeName(UInt64(UInt(bitPattern: type)), word, to: &key)
        case .value(let value)?:
            let number = values[value] ?? {
                let n = UInt64(values.count)
                values[value] = n
                return n
            }()
            key.add(2 as UInt64); key.add(number)
        case .outline(let words)?:
            key.add(3 as UInt64); key.add(UInt64(words.count)); key.words.append(contentsOf: words)
        }
        return true
    }

    /// A `.type` name's words (what `ShapeNode.typeName` holds ready).
    @inline(__always)
    private static func addTypeName(_ type: UInt64, _ word: UInt64, to key: inout Key) {
        key.add(1 as UInt64); key.add(type); key.add(word)
    }

    /// The scratch key, emptied, taken out of the store while it is written (each write to a
    /// stored property would be checked for exclusive access); `reuse` puts it back.
    private func takeScratch() -> Key {
        var key = Key()
        swap(&key, &scratch)
        key.words.removeAll(keepingCapacity: true)
        return key
    }

    /// What `table` holds for `key` to draw with, made (by `make`, with its bytes) at
    /// the key's second drawing and counted; nil when the caller draws directly: the first
    /// drawing (most content is drawn once, and a mask would only cost), or nothing could be
    /// made within `byteLimit`.
    private func reuse<T>(_ table: inout WordTable<Reuse<T>>, _ scratchKey: Key, make: () -> (T, bytes: Int)?) -> T? {
        defer { scratch = scratchKey }
        let key = scratchKey.words
        let hash = WordTable<Reuse<T>>.hash(key)
        guard let entry = table.find(key, hash: hash) else {
            table.insert(key, hash: hash, value: .seen)
            seen += 1
            return nil
        }
        switch table[entry] {
        case .refused:
            return nil
        case .seen:
            guard let (made, size) = make(), bytes + size <= byteLimit else {
                table[entry] = .refused
                return nil
            }
            bytes += size
            table[entry] = .made(made)
            misses += 1
            return made
        case .made(let cached):
            hits += 1
            return cached
        }
    }

    /// Where `rect`'s origin lands in device pixels under `t`, for a shared drawing: the whole
    /// pixel (ix, iy), the phase (fx, fy) in steps of 1/`phaseSteps` px the mask is drawn at,
    /// and that step (px, py). Nil when `t` is not a uniform scale and translation or the
    /// origin is not finite and within 10⁹ px.
    func place(_ rect: Rect, _ t: Transform) -> (ix: Double, iy: Double, fx: Double, fy: Double, px: Int64, py: Int64)? {
        guard t.b == 0, t.c == 0, t.a == t.d, t.a > 0, t.isFinite else { return nil }
        let ox = t.a * rect.minX + t.tx, oy = t.d * rect.minY + t.ty
        guard ox.isFinite, oy.isFinite, abs(ox) < 1e9, abs(oy) < 1e9 else { return nil }
        let steps = Double(phaseSteps)
        let qx = (ox * steps).rounded(), qy = (oy * steps).rounded()
        let ix = (qx / steps).rounded(.down), iy = (qy / steps).rounded(.down)
        return (ix, iy, (qx - ix * steps) / steps, (qy - iy * steps) / steps, Int64(qx - ix * steps), Int64(qy - iy * steps))
    }

    /// Draws in `color` at `rect` (user space of `canvas`) the coverage of the shape `name`
    /// names, through a shared mask; `make` builds the shape, called only when a mask is made.
    /// False when the caller should draw directly: the transform does not qualify, or this is the
    /// shape's first drawing (most content is drawn once, and a mask would only cost).
    func draw(in canvas: Canvas, rect: Rect, name: ShapeIdentity, kind: UInt64, stroke: Double, color: RGBAColor, make: () -> Shape?) -> Bool {
        let t = canvas.transform
        guard let (ix, iy, fx, fy, px, py) = place(rect, t) else { return false }
        var key = takeScratch()
        addName(name, to: &key)
        key.add(kind); key.add(rect.width); key.add(rect.height); key.add(stroke)
        key.add(t.a); key.add(UInt64(bitPattern: px)); key.add(UInt64(bitPattern: py))
        guard let mask = reuse(&masks, key, make: {
            make().flatMap { Self.rasterise(scale: t.a, phase: (fx, fy), bounds: $0.bounds, reach: $0.reach, $0.draw) }.map { ($0, $0.sprite.byteCount) }
        }) else { return false }
        canvas.fill(mask.sprite, at: (x: Int(ix) + mask.dx, y: Int(iy) + mask.dy), color: color)
        return true
    }

    /// Bytes held by the masks and sprites made.
    public private(set) var bytes = 0

    /// Draws `shapes` (each at its rect, user space of the context's canvas, in order) as one
    /// sprite made at the group's second drawing — one pass over the pixels instead of one per
    /// shape. The sprite is the shapes drawn over transparent, composited source-over, so
    /// where shapes overlap at their edges a pixel may differ by 1/255 from drawing them one
    /// after another. False when the caller should draw them itself.
    func drawGroup(_ shapes: [(node: ShapeNode, rect: Rect)], in rect: Rect, context: DrawContext) -> Bool {
        let canvas = context.canvas
        let t = canvas.transform
        guard let (ix, iy, fx, fy, px, py) = place(rect, t) else { return false }
        var key = takeScratch()
        for (node, r) in shapes {
            guard r.minX.isFinite, r.minY.isFinite, r.width.isFinite, r.height.isFinite else {
                scratch = key
                return false
            }
            if let (type, word) = node.typeName {
                Self.addTypeName(type, word, to: &key)
            } else if !addName(node.identity, to: &key) {
                var outline = Key()
                outline.add(node.shape.path(in: Rect(x: 0, y: 0, width: r.width, height: r.height)))
                addName(.outline(outline.words), to: &key)
            }
            key.add(r.minX - rect.minX); key.add(r.minY - rect.minY)
            key.add(r.width); key.add(r.height)
            if let fill = node.fill {
                key.add(1 as UInt64); key.add(fill.rgba)
            } else {
                key.add(0 as UInt64)
            }
            if let (color, width, inside) = node.stroke {
                key.add(inside ? 2 : 1 as UInt64); key.add(width); key.add(color.rgba)
            } else {
                key.add(0 as UInt64)
            }
        }
        key.add(t.a); key.add(UInt64(bitPattern: px)); key.add(UInt64(bitPattern: py))
        guard let group = reuse(&groups, key, make: {
            Self.composite(shapes, origin: rect, scale: t.a, phase: (fx, fy), context: context).map { ($0, $0.sprite.pixmap.data.count) }
        }) else { return false }
        canvas.drawSprite(group.sprite, x: Int(ix) + group.dx, y: Int(iy) + group.dy)
        return true
    }

    /// The shapes drawn in their colours over transparent, on a canvas just covering their
    /// outlines (and strokes), at `phase`; `dx`, `dy` place its top-left.
    static func composite(_ shapes: [(node: ShapeNode, rect: Rect)], origin: Rect, scale: Double, phase: (Double, Double), context: DrawContext) -> (sprite: Sprite, dx: Int, dy: Int)? {
        var box: Rect? = nil
        var reach = 0.0
        for (node, r) in shapes {
            let local = Rect(x: r.minX - origin.minX, y: r.minY - origin.minY, width: r.width, height: r.height)
            guard let b = node.shape.path(in: local).bounds else { continue }
            box = box.map { $0.union(b) } ?? b
            if let (_, width, _) = node.stroke { reach = max(reach, width * 2 + 1) }
        }
        guard let bounds = box, let (layer, x0, y0) = Self.layer(scale: scale, phase: phase, bounds: bounds, reach: reach) else { return nil }
        let direct = DrawContext(canvas: layer, scale: context.scale, sprites: nil, layers: context.layers)
        for (node, r) in shapes {
            node.draw(in: Rect(x: r.minX - origin.minX, y: r.minY - origin.minY, width: r.width, height: r.height), direct)
        }
        return (sprite: Sprite(layer.pixmap), dx: Int(x0), dy: Int(y0))
    }

    /// A transparent canvas just covering `bounds` ± `reach` (user space) at `scale`, drawn at
    /// `phase`, with a pixel to spare each side; (x0, y0) its top-left in device pixels
    /// relative to the whole pixel of the origin. Nil past 4096 pixels a side.
    static func layer(scale: Double, phase: (Double, Double), bounds: Rect, reach: Double) -> (Canvas, x0: Double, y0: Double)? {
        let x0 = ((bounds.minX - reach) * scale + phase.0).rounded(.down) - 1, y0 = ((bounds.minY - reach) * scale + phase.1).rounded(.down) - 1
        let x1 = ((bounds.maxX + reach) * scale + phase.0).rounded(.up) + 1, y1 = ((bounds.maxY + reach) * scale + phase.1).rounded(.up) + 1
        guard x0.isFinite, y1.isFinite, x1.isFinite, y0.isFinite, x1 - x0 <= 4096, y1 - y0 <= 4096,
              let layer = Canvas(width: Int(x1 - x0), height: Int(y1 - y0)) else { return nil }
        layer.transform = Transform(a: scale, b: 0, c: 0, d: scale, tx: phase.0 - x0, ty: phase.1 - y0)
        return (layer, x0, y0)
    }

    /// The alpha of `draw`'s white drawing, on a canvas just covering `bounds` ± `reach`.
    static func rasterise(scale: Double, phase: (Double, Double), bounds: Rect, reach: Double, _ draw: (Canvas) -> Void) -> Mask? {
        guard let (layer, x0, y0) = layer(scale: scale, phase: phase, bounds: bounds, reach: reach) else { return nil }
        draw(layer)
        guard let sprite = CoverageSprite(mask: layer.pixmap.alphaMask, width: layer.width) else { return nil }
        return Mask(sprite: sprite, dx: Int(x0), dy: Int(y0))
    }
}

/// What names a shape's outline in the sprite store, decided once when its node is made.
enum ShapeIdentity: Hashable {
    /// A shape type whose outline depends on at most one word of its value (a size-less type
    /// such as `Circle`, or a built-in one told by its parameters).
    case type(ObjectIdentifier, UInt64)
    /// Any other Hashable shape: its value (compared through `AnyHashable`, the slow path).
    case value(AnyHashable)
    /// A shape that is not Hashable: its outline's path elements, built at each drawing.
    case outline([UInt64])

    /// The identity of `shape`, nil when only its outline can name it.
    init?<S: Shape>(_ shape: S) {
        if let r = shape as? RoundedRectangle {
            // The radius and the style decide the outline; the radius's sign bit stays free for the style.
            self = .type(ObjectIdentifier(S.self), r.cornerRadius.bitPattern & ~(1 << 63) | (r.style == .continuous ? 1 << 63 : 0))
        } else if MemoryLayout<S>.size == 0 {
            // A type without stored properties has one value: its type names it.
            self = .type(ObjectIdentifier(S.self), 0)
        } else if let h = shape as? any Hashable {
            self = .value(AnyHashable(h))
        } else {
            return nil
        }
    }
}

extension DrawContext {
    /// Fills `path(local rect)` in `color` at `rect`, through the sprite store when there is
    /// one (and the transform allows), else directly. `stroke` strokes the outline instead.
    /// `identity` names the outline without building it; without one the outline's path
    /// elements are the name.
    func fill(_ path: (Rect) -> Path, in rect: Rect, color: RGBAColor, stroke: Double? = nil, kind: UInt64, identity: ShapeIdentity? = nil) {
        if let sprites, rect.width.isFinite, rect.height.isFinite {
            let size = Rect(x: 0, y: 0, width: rect.width, height: rect.height)
            func shape(_ local: Path) -> SpriteStore.Shape? {
                guard let bounds = local.bounds else { return nil }
                return SpriteStore.Shape(bounds: bounds, reach: stroke.map { $0 * 2 + 1 } ?? 0) { layer in
                    if let stroke { layer.stroke(local, style: StrokeStyle(width: stroke), paint: Paint(color: .white)) }
                    else { layer.fill(local, paint: Paint(color: .white)) }
                }
            }
            let drawn: Bool
            if let identity {
                drawn = sprites.draw(in: canvas, rect: rect, name: identity, kind: kind, stroke: stroke ?? -1, color: color) { shape(path(size)) }
            } else {
                let local = path(size)
                var key = SpriteStore.Key()
                key.add(local)
                drawn = sprites.draw(in: canvas, rect: rect, name: .outline(key.words), kind: kind, stroke: stroke ?? -1, color: color) { shape(local) }
            }
            if drawn { return }
        }
        if let stroke { canvas.stroke(path(rect), style: StrokeStyle(width: stroke), paint: Paint(color: color)) }
        else { canvas.fill(path(rect), paint: Paint(color: color)) }
    }
}
