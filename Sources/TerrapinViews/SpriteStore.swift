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
// Rejected: sprites of whole marker views (each label differs, so S1 reuses nothing) and
// colour sprites (compositing premultiplied pixels over the map differs by up to 1/255).
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
    // (In `shapes` below: nil never seen; .some(nil) seen once, drawn directly; .some(mask) shared.)
    /// Drawings served from a mask made earlier, masks made, and shapes seen once (drawn directly).
    public private(set) var hits = 0, misses = 0, seen = 0

    /// Sub-pixel positions told apart (per axis): shapes within 1/(2·steps) px of a step share
    /// its mask. Default 8.
    public let phaseSteps: Int

    /// The render's glyph masks, looked up without the shared cache's lock.
    public let glyphs = GlyphFrontCache()

    public init(phaseSteps: Int = 8) { self.phaseSteps = max(1, min(1 << 16, phaseSteps)) }

    /// A key under construction.
    struct Key {
        var words: [UInt64] = []
        mutating func add(_ v: Double) { words.append(v.bitPattern) }
        mutating func add(_ v: UInt64) { words.append(v) }
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

    /// The full key: the shape's name, the size it is drawn at, fill or stroke, the device
    /// scale and the phase step. Plain words, so a lookup hashes and compares a few integers
    /// (names made of `AnyHashable`s compared through the runtime's casts were a fifth of a
    /// 10,000-marker paint).
    struct FullKey: Hashable {
        let shape: ShapeIdentity
        let kind: UInt64
        let width: UInt64, height: UInt64, stroke: UInt64
        let scale: UInt64
        let qx: Int64, qy: Int64
    }

    private var shapes: [FullKey: Mask??] = [:]

    /// Draws in `color` at `rect` (user space of `canvas`) the coverage of the shape `name`
    /// names, through a shared mask; `make` builds the shape, called only when a mask is made.
    /// False when the caller should draw directly: the transform does not qualify, or this is the
    /// shape's first drawing (most content is drawn once, and a mask would only cost).
    func draw(in canvas: Canvas, rect: Rect, name: ShapeIdentity, kind: UInt64, stroke: Double, color: RGBAColor, make: () -> Shape?) -> Bool {
        let t = canvas.transform
        guard t.b == 0, t.c == 0, t.a == t.d, t.a > 0, t.isFinite else { return false }
        let ox = t.a * rect.minX + t.tx, oy = t.d * rect.minY + t.ty
        guard ox.isFinite, oy.isFinite, abs(ox) < 1e9, abs(oy) < 1e9 else { return false }
        // The phase in steps of 1/`phaseSteps` px; the mask is drawn at the step's phase.
        let steps = Double(phaseSteps)
        let qx = (ox * steps).rounded(), qy = (oy * steps).rounded()
        let ix = (qx / steps).rounded(.down), iy = (qy / steps).rounded(.down)
        let fx = (qx - ix * steps) / steps, fy = (qy - iy * steps) / steps
        let key = FullKey(shape: name, kind: kind, width: rect.width.bitPattern, height: rect.height.bitPattern, stroke: stroke.bitPattern,
                          scale: t.a.bitPattern, qx: Int64(qx - ix * steps), qy: Int64(qy - iy * steps))
        let mask: Mask?
        switch shapes[key] {
        case nil:
            shapes[key] = .some(nil)
            seen += 1
            return false
        case .some(nil):
            mask = make().flatMap { Self.rasterise(scale: t.a, phase: (fx, fy), bounds: $0.bounds, reach: $0.reach, $0.draw) }
            shapes[key] = .some(mask)
            misses += 1
        case .some(let cached?):
            mask = cached
            hits += 1
        }
        guard let mask else { return false }
        canvas.fill(mask.sprite, at: (x: Int(ix) + mask.dx, y: Int(iy) + mask.dy), color: color)
        return true
    }

    /// The alpha of `draw`'s white drawing, on a canvas just covering `bounds` ± `reach`.
    static func rasterise(scale: Double, phase: (Double, Double), bounds: Rect, reach: Double, _ draw: (Canvas) -> Void) -> Mask? {
        let x0 = ((bounds.minX - reach) * scale + phase.0).rounded(.down) - 1, y0 = ((bounds.minY - reach) * scale + phase.1).rounded(.down) - 1
        let x1 = ((bounds.maxX + reach) * scale + phase.0).rounded(.up) + 1, y1 = ((bounds.maxY + reach) * scale + phase.1).rounded(.up) + 1
        guard x0.isFinite, y1.isFinite, x1 - x0 <= 4096, y1 - y0 <= 4096,
              let layer = Canvas(width: Int(x1 - x0), height: Int(y1 - y0)) else { return nil }
        layer.transform = Transform(a: scale, b: 0, c: 0, d: scale, tx: phase.0 - x0, ty: phase.1 - y0)
        draw(layer)
        let pixels = layer.pixmap
        var data = [UInt8](repeating: 0, count: pixels.width * pixels.height)
        pixels.data.withUnsafeBufferPointer { p in for i in 0..<data.count { data[i] = p[i * 4 + 3] } }
        guard let sprite = CoverageSprite(mask: data, width: pixels.width) else { return nil }
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
