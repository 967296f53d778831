// Canvas: draws paths, strokes, shadows and images into a Pixmap, with a current transform
// and a stack of anti-aliased clips. Every draw goes path → device polylines → Rasterizer →
// PaintSink (the blitter). Degenerate input (empty paths, NaN coordinates, singular
// transforms, zero sizes) draws nothing and never traps.
import CTerrapinPrefetch
import TerrapinGeometry

public final class Canvas {
    /// The pixels. Touched only through `pixmap` and `drawable`, which first wait for queued
    /// composites (`deferringComposites`), and by the composite queue's thread while it runs.
    private var surface: Pixmap
    /// The pixels drawn so far (after every queued composite).
    public var pixmap: Pixmap {
        settle()
        return surface
    }
    /// The pixels, for drawing into (after every queued composite).
    private var drawable: Pixmap {
        get {
            settle()
            return surface
        }
        _modify {
            settle()
            yield &surface
        }
    }
    public let width: Int, height: Int
    /// Composites handed to another thread while the caller goes on (`deferringComposites`).
    var composites: CompositeQueue? = nil
    /// User space → device pixels. Default identity.
    public var transform: Transform = .identity

    private var clip: Mask? = nil
    /// Whether `clip`'s buffer is the current clip's alone (not also a saved state's), so it can
    /// be kept for the next clip when it is dropped.
    private var clipIsOwn = false
    /// Canvas-sized clip buffers, all zero, kept from dropped clips: a clip's buffer is the
    /// whole canvas, and a fresh one is a page-faulted, zeroed allocation (a map's labels clip
    /// each capsule: 150 such a frame).
    private var spareClips: [[UInt8]] = []
    /// The last colour `fillMask` drew without a clip, and its solid source (never transparent).
    /// Behind a pointer the canvas owns: as a stored property, each glyph's read and write of it
    /// was checked for exclusive access at run time, costing more than the source it saves.
    private let maskSource: UnsafeMutablePointer<(color: RGBAColor, packed: UInt32)> = {
        let p = UnsafeMutablePointer<(color: RGBAColor, packed: UInt32)>.allocate(capacity: 1)
        p.initialize(to: (RGBAColor(red: .nan, green: 0, blue: 0, alpha: 0), 0))
        return p
    }()
    /// Whether drawing is clipped (then fast paths that ignore the clip step aside).
    var hasClip: Bool { clip != nil }
    /// The device pixels (premultiplied, packed), for fast paths elsewhere in the module.
    func withDevicePixels<R>(_ body: (UnsafeMutablePointer<UInt32>) throws -> R) rethrows -> R {
        try drawable.data.withUnsafeMutableBytes { try body($0.bindMemory(to: UInt32.self).baseAddress!) }
    }
    /// How many rows ahead the sprite compositors ask for the destination's cache lines.
    static let prefetchRows = 4
    /// While row `row` of `pixels` (`width` per row) is drawn, asks for row `row + prefetchRows`
    /// over `columns` when it is before `end`: a canvas's rows lie a page or more apart, where
    /// the hardware's own prefetchers stop (a hint: nothing drawn changes).
    @inline(__always)
    static func prefetchAhead(_ pixels: UnsafeMutablePointer<UInt32>, width: Int, row: Int, end: Int, columns: Range<Int>) {
        let ahead = row + prefetchRows
        if ahead < end { tp_prefetch_write(pixels + ahead * width + columns.lowerBound, columns.count * 4) }
    }
    private var saved: [(Transform, Mask?)] = []
    private let rasterizer = Rasterizer.reused()
    private var device = Polylines()
    private var centreline = Polylines()
    private var outline = Polylines()
    private var stroker = Stroker()
    private var span: [UInt32]
    private var maskRow: [UInt8] = []

    public init(pixmap: Pixmap) {
        surface = pixmap
        width = pixmap.width
        height = pixmap.height
        self.span = [UInt32](repeating: 0, count: pixmap.width)
    }

    deinit {
        maskSource.deallocate()
        Rasterizer.recycle(rasterizer)
    }

    /// A canvas over a new transparent pixmap; nil when the size is outside `Pixmap.Limits`.
    public convenience init?(width: Int, height: Int) {
        guard let pixmap = Pixmap(width: width, height: height) else { return nil }
        self.init(pixmap: pixmap)
    }

    /// Runs `body` with this canvas's unclipped solid-colour mask fills (glyphs), coverage-sprite
    /// fills and sprite draws handed to a second thread, which draws them in order while `body`
    /// goes on (see `CompositeQueue`); returns once they are drawn. The bytes are those of
    /// drawing directly. Worth it where a caller spends as long deciding what to draw as drawing
    /// it (thousands of markers) and another core is free; nested calls share the one queue.
    public func deferringComposites<R>(_ body: () throws -> R) rethrows -> R {
        guard composites == nil else { return try body() }
        composites = CompositeQueue(self)
        defer {
            composites?.finish()
            composites = nil
        }
        return try body()
    }

    /// Waits until every queued composite is drawn.
    @inline(__always)
    private func settle() {
        if let composites { composites.finish() }
    }

    /// Draws queued composites (on the queue's thread: touches nothing but the pixels).
    func run(_ operations: [CompositeQueue.Operation], _ copied: [UInt8]) {
        let width = width, height = height
        surface.data.withUnsafeMutableBytes { raw in
            let pixels = raw.bindMemory(to: UInt32.self).baseAddress!
            copied.withUnsafeBufferPointer { copied in
                for operation in operations {
                    switch operation {
                    case .mask(let mask, let maskWidth, let x, let y, let source):
                        mask.withUnsafeBufferPointer {
                            Self.compositeMask($0, width: maskWidth, at: (x, y), source: source, into: pixels, width: width, height: height)
                        }
                    case .copiedMask(let start, let count, let maskWidth, let x, let y, let source):
                        Self.compositeMask(UnsafeBufferPointer(rebasing: copied[start..<start + count]), width: maskWidth, at: (x, y),
                                           source: source, into: pixels, width: width, height: height)
                    case .coverage(let sprite, let x, let y, let source):
                        Self.composite(sprite, at: (x, y), source: source, into: pixels, width: width, height: height)
                    case .sprite(let sprite, let x, let y):
                        Self.composite(sprite, x: x, y: y, into: pixels, width: width, height: height)
                    }
                }
            }
        }
    }

    /// The device pixels drawing can reach: the clip's bounds, or the whole pixmap.
    public var clipBounds: IntRect { clip?.bounds ?? fullRect }

    private var fullRect: IntRect { IntRect(x0: 0, y0: 0, x1: width, y1: height) }

    /// Pushes the transform and clip; `restore` pops them.
    public func save() {
        saved.append((transform, clip))
        clipIsOwn = false
    }

    public func restore() {
        guard let state = saved.popLast() else { return }
        transform = state.0
        dropClip()
        clip = state.1
    }

    /// Sets `clip` to nil, keeping its buffer as a spare (zeroed again over the bounds it was
    /// drawn in) when no saved state shares it.
    private func dropClip() {
        // Taken out of `clip` and zeroed in place: the buffer has no other owner, so nothing is copied.
        guard var old = clip.take(), clipIsOwn else { return }
        clipIsOwn = false
        guard spareClips.count < 2 else { return }
        let r = old.bounds
        if !r.isEmpty {
            old.data.withUnsafeMutableBufferPointer { m in
                for y in r.y0..<r.y1 { (m.baseAddress! + y * width + r.x0).update(repeating: 0, count: r.width) }
            }
        }
        spareClips.append(old.data)
    }

    /// Runs `body` between save and restore.
    public func withSavedState<R>(_ body: () throws -> R) rethrows -> R {
        save()
        defer { restore() }
        return try body()
    }

    /// Replaces every pixel (ignores clip and transform).
    public func clear(_ color: RGBAColor = .transparent) { drawable.fill(color.premultiplied) }

    // MARK: - Fills and strokes

    public func fill(_ path: Path, paint: Paint, rule: FillRule = .nonZero) {
        device.removeAll()
        path.flatten(transform: transform, into: &device)
        fillDevice(device, paint: paint, rule: rule)
    }

    public func stroke(_ path: Path, style: StrokeStyle, paint: Paint) {
        guard makeStrokeOutline(path, style: style) else { return }
        fillDevice(outline, paint: paint, rule: .nonZero)
    }

    /// The device-space outline of a stroke, to be filled with the non-zero rule.
    public func strokeOutline(_ path: Path, style: StrokeStyle) -> Polylines? {
        makeStrokeOutline(path, style: style) ? outline : nil
    }

    /// Builds the stroke outline into the reusable `outline` buffer; false when nothing is drawn.
    private func makeStrokeOutline(_ path: Path, style: StrokeStyle) -> Bool {
        let scale = transform.maxScale
        guard scale > 0, scale.isFinite, transform.isFinite, style.width >= 0, style.width.isFinite else { return false }
        centreline.removeAll()
        var effective = style
        var tolerance = Path.defaultTolerance
        if style.width == 0 {
            // Hairline: one device pixel wide whatever the transform.
            path.flatten(transform: transform, into: &centreline)
            effective.width = 1
            effective.dash = style.dash.map { $0 * scale }
            effective.dashPhase = style.dashPhase * scale
        } else {
            tolerance /= scale
            path.flatten(tolerance: tolerance, into: &centreline)
        }
        if !effective.dash.isEmpty, let dashed = Dasher.dash(centreline, pattern: effective.dash, phase: effective.dashPhase) {
            centreline = dashed
        }
        stroker.stroke(centreline, style: effective, tolerance: tolerance, into: &outline)
        if style.width != 0 { outline.transform(by: transform) }
        return !outline.contours.isEmpty
    }

    /// Fills polylines already in device space.
    public func fillDevice(_ polylines: Polylines, paint: Paint, rule: FillRule) {
        guard let source = makeSource(paint) else { return }
        var coverageScale: UInt32 = 255
        if case .image = source { coverageScale = UInt32(RGBAColor.unitToByte(Float(paint.opacity))) }
        blit(source: source, mode: paint.blendMode, coverageScale: coverageScale) { sink, clipRect in
            rasterizer.fill(polylines, rule: rule, clip: clipRect, antiAlias: paint.antiAlias, into: &sink)
        }
    }

    // MARK: - Clipping

    /// Intersects the clip with `path` (anti-aliased unless `antiAlias` is false).
    public func clip(to path: Path, rule: FillRule = .nonZero, antiAlias: Bool = true) {
        device.removeAll()
        path.flatten(transform: transform, into: &device)
        var mask = spareClips.popLast().map { Mask(width: width, height: height, zeroed: $0) } ?? Mask(width: width, height: height)
        if let box = Rasterizer.pixelBox(device) {
            let region = (clip?.bounds ?? fullRect)
            mask.data.withUnsafeMutableBufferPointer { m in
                var sink = MaskSink(pixels: m.baseAddress!, width: width)
                rasterizer.fill(device, rule: rule, clip: region, antiAlias: antiAlias, into: &sink)
            }
            mask.bounds = box.intersection(region)
        }
        if let existing = clip {
            let r = mask.bounds
            if !r.isEmpty {
                for y in r.y0..<r.y1 {
                    for x in r.x0..<r.x1 {
                        let i = y * mask.width + x
                        mask.data[i] = UInt8(Pixel.mul(UInt32(mask.data[i]), UInt32(existing.data[i])))
                    }
                }
            }
        }
        if mask.bounds.isEmpty { mask.bounds = IntRect(x0: 0, y0: 0, x1: 0, y1: 0) }
        dropClip()
        clip = mask
        clipIsOwn = true
    }

    /// The current clip coverage at a pixel (255 when there is no clip).
    public func clipCoverage(x: Int, y: Int) -> UInt8 { clip.map { $0[x, y] } ?? 255 }

    // MARK: - Shadows

    /// Draws the blurred shadow of `path`'s fill: `color` through a Gaussian of standard
    /// deviation `radius` (in user units, as SwiftUI's `shadow(radius:)`; CSS blur = 2·radius),
    /// moved by `offset` (user units). Draw the shape itself afterwards. The deviation is capped
    /// at `maxShadowSigma` device pixels; a shadow whose blur area would exceed the pixel limit
    /// is not drawn.
    public func drawShadow(of path: Path, color: RGBAColor, radius: Double, offset: Point = .zero, rule: FillRule = .nonZero) {
        device.removeAll()
        path.flatten(transform: transform, into: &device)
        drawShadow(ofDevice: device, color: color, radius: radius, offset: offset, rule: rule)
    }

    public static let maxShadowSigma = 256.0

    public func drawShadow(ofDevice polylines: Polylines, color: RGBAColor, radius: Double, offset: Point = .zero, rule: FillRule = .nonZero) {
        let sigma = min(Self.maxShadowSigma, radius * transform.maxScale)
        guard sigma.isFinite, sigma >= 0, offset.isFinite, let source = makeSource(Paint(color: color)) else { return }
        let shift = transform.applyLinear(offset)
        var shifted = polylines
        shifted.transform(by: .translation(shift.x, shift.y))
        guard let shape = Rasterizer.pixelBox(shifted) else { return }
        let margin = Int((3 * sigma).rounded(.up)) + 1
        let reach = IntRect(x0: -margin, y0: -margin, x1: width + margin, y1: height + margin)
        let box = IntRect(x0: shape.x0 - margin, y0: shape.y0 - margin, x1: shape.x1 + margin, y1: shape.y1 + margin).intersection(reach)
        guard !box.isEmpty, box.width * box.height <= Pixmap.Limits.maxPixels else { return }
        var mask = [UInt8](repeating: 0, count: box.width * box.height)
        shifted.transform(by: .translation(Double(-box.x0), Double(-box.y0)))
        mask.withUnsafeMutableBufferPointer { m in
            var sink = MaskSink(pixels: m.baseAddress!, width: box.width)
            rasterizer.fill(shifted, rule: rule, clip: IntRect(x0: 0, y0: 0, x1: box.width, y1: box.height), into: &sink)
        }
        Blur.gaussian(&mask, width: box.width, height: box.height, sigma: sigma)
        drawMask(mask, width: box.width, at: (box.x0, box.y0), source: source)
    }

    /// Composites `color` through an 8-bit coverage mask (`width` bytes per row) whose top-left
    /// pixel lands on device pixel `origin`; the clip applies, the transform does not. This is
    /// how glyphs are drawn.
    public func fillMask(_ mask: [UInt8], width maskWidth: Int, at origin: (x: Int, y: Int), color: RGBAColor) {
        guard maskWidth > 0, !mask.isEmpty else { return }
        guard clip == nil else {
            if let source = makeSource(Paint(color: color)) { drawMask(mask, width: maskWidth, at: (origin.x, origin.y), source: source) }
            return
        }
        // A text's glyphs come one after another in one colour: its source is made once.
        let s: UInt32
        if color == maskSource.pointee.color {
            s = maskSource.pointee.packed
        } else {
            guard case .solid(let packed) = makeSource(Paint(color: color)) else { return }
            s = packed
            maskSource.pointee = (color, packed)
        }
        // The glyph path: a solid colour through a small mask, no clip; composite directly.
        let maskHeight = mask.count / maskWidth
        guard max(0, origin.x) < min(width, origin.x + maskWidth), max(0, origin.y) < min(height, origin.y + maskHeight) else { return }
        if let composites {
            composites.addMask(mask, width: maskWidth, x: origin.x, y: origin.y, source: s)
            return
        }
        withDevicePixels { pixels in
            mask.withUnsafeBufferPointer { Self.compositeMask($0, width: maskWidth, at: origin, source: s, into: pixels, width: width, height: height) }
        }
    }

    /// `fillMask`'s glyph path: premultiplied `s` through `mask` (`maskWidth` per row) at
    /// device pixel `origin` of `pixels` (`width` × `height`), source-over, no clip.
    static func compositeMask(_ m: UnsafeBufferPointer<UInt8>, width maskWidth: Int, at origin: (x: Int, y: Int), source s: UInt32,
                              into pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int) {
        let maskHeight = m.count / maskWidth
        let x0 = max(0, origin.x), x1 = min(width, origin.x + maskWidth)
        let y0 = max(0, origin.y), y1 = min(height, origin.y + maskHeight)
        guard x0 < x1, y0 < y1 else { return }
        let source4 = SIMD4<UInt32>(repeating: s)
        for y in y0..<y1 {
            let row = pixels + y * width
            let maskRow = (y - origin.y) * maskWidth - origin.x
            var x = x0
            // Four pixels at a time (glyph masks are mostly runs of 0 and 255).
            while x + 4 <= x1 {
                let c = SIMD4<UInt32>(UInt32(m[maskRow + x]), UInt32(m[maskRow + x + 1]), UInt32(m[maskRow + x + 2]), UInt32(m[maskRow + x + 3]))
                if c != .zero {
                    let p = UnsafeMutableRawPointer(row + x)
                    p.storeBytes(of: Pixel.sourceOver4(source4, into: p.loadUnaligned(as: SIMD4<UInt32>.self), coverage: c), as: SIMD4<UInt32>.self)
                }
                x += 4
            }
            while x < x1 {
                let c = UInt32(m[maskRow + x])
                if c != 0 { row[x] = Pixel.blend(s, into: row[x], coverage: c, mode: .sourceOver) }
                x += 1
            }
        }
    }

    /// Composites `source` through an 8-bit mask placed at a device position.
    private func drawMask(_ mask: [UInt8], width maskWidth: Int, at origin: (Int, Int), source: Source) {
        let maskHeight = mask.count / maskWidth
        if maskRow.count < maskWidth { maskRow = [UInt8](repeating: 0, count: maskWidth) }
        var rowCoverage = maskRow
        maskRow = []
        defer { maskRow = rowCoverage }
        blit(source: source, mode: .sourceOver, coverageScale: 255) { sink, clipRect in
            let y0 = max(origin.1, clipRect.y0), y1 = min(origin.1 + maskHeight, clipRect.y1)
            let x0 = max(origin.0, clipRect.x0), x1 = min(origin.0 + maskWidth, clipRect.x1)
            guard y0 < y1, x0 < x1 else { return }
            mask.withUnsafeBufferPointer { m in
                rowCoverage.withUnsafeMutableBufferPointer { rowBuffer in
                    for y in y0..<y1 {
                        let start = (y - origin.1) * maskWidth + (x0 - origin.0)
                        for i in 0..<(x1 - x0) { rowBuffer[i] = m[start + i] }
                        sink.blit(y: y, x: x0, coverage: UnsafeMutableBufferPointer(rebasing: rowBuffer[0..<(x1 - x0)]))
                    }
                }
            }
        }
    }

    // MARK: - Images

    /// Draws `image` with `imageTransform` mapping image pixels to user space (identity: the
    /// image's top-left at the user-space origin, one pixel per unit). Edges are anti-aliased
    /// unless `antiAlias` is false (then a pixel is drawn when its centre is inside).
    /// `reduction`: the image's `areaAverage` by `reductionFactor` of this draw, when the caller
    /// keeps one (else it is made here when needed).
    public func drawImage(_ image: Pixmap, transform imageTransform: Transform = .identity, filter: ImageFilter = .smooth,
                          opacity: Double = 1, blendMode: BlendMode = .sourceOver, reduction: Pixmap? = nil, antiAlias: Bool = true) {
        let toDevice = imageTransform.concatenating(transform)
        guard toDevice.inverted != nil else { return }
        if toDevice.a == 1, toDevice.b == 0, toDevice.c == 0, toDevice.d == 1,
           toDevice.tx == toDevice.tx.rounded(), toDevice.ty == toDevice.ty.rounded(), abs(toDevice.tx) < 1e9, abs(toDevice.ty) < 1e9 {
            // Pixel-aligned: every filter gives the source pixels exactly; blend them directly.
            blitAligned(image, x: Int(toDevice.tx), y: Int(toDevice.ty), opacity: opacity, blendMode: blendMode)
            return
        }
        var source = image
        var sourceToDevice = toDevice
        if filter == .smooth {
            let k = Self.reductionFactor(toDevice)
            if k >= 2, let reduced = reduction ?? Self.areaAverage(image, factor: k) {
                source = reduced
                sourceToDevice = Transform.scale(Double(k)).concatenating(toDevice)
            }
        }
        guard let inverse = sourceToDevice.inverted else { return }
        if blitScaled(source, inverse: inverse, covering: toDevice, image: image, bilinear: filter != .nearest, opacity: opacity, blendMode: blendMode) { return }
        device.removeAll()
        PathBuilder.rect(Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))).flatten(transform: toDevice, into: &device)
        let outline = device
        let opacity8 = UInt32(RGBAColor.unitToByte(Float(opacity)))
        guard opacity8 > 0 else { return }
        source.data.withUnsafeBytes { raw in
            let sampler = ImageSampler(pixels: raw.bindMemory(to: UInt32.self).baseAddress!, width: source.width, height: source.height,
                                       inverse: inverse, bilinear: filter != .nearest)
            blit(source: .image(sampler), mode: blendMode, coverageScale: opacity8) { sink, clipRect in
                rasterizer.fill(outline, rule: .nonZero, clip: clipRect, antiAlias: antiAlias, into: &sink)
            }
        }
    }

    /// The axis-aligned fast path of `drawImage`: when the image lands on whole pixels (a scale
    /// and translation whose edges are integers), every covered pixel has coverage 1, so the
    /// sampling can run per row with the column weights computed once. Gives exactly the bytes
    /// of the general path. Returns false when it does not apply.
    private func blitScaled(_ source: Pixmap, inverse: Transform, covering toDevice: Transform, image: Pixmap, bilinear: Bool,
                            opacity: Double, blendMode: BlendMode) -> Bool {
        guard clip == nil, opacity >= 1, blendMode == .sourceOver, toDevice.b == 0, toDevice.c == 0, toDevice.a > 0, toDevice.d > 0,
              inverse.b == 0, inverse.c == 0 else { return false }
        let left = toDevice.tx, top = toDevice.ty
        let right = toDevice.tx + toDevice.a * Double(image.width), bottom = toDevice.ty + toDevice.d * Double(image.height)
        guard [left, top, right, bottom].allSatisfy({ $0 == $0.rounded() && abs($0) < 1e9 }) else { return false }
        let region = fullRect.intersection(IntRect(x0: Int(left), y0: Int(top), x1: Int(right), y1: Int(bottom)))
        guard !region.isEmpty else { return true }
        let sampler = (width: source.width, height: source.height)
        // Column and row taps with the general sampler's arithmetic (ImageSampler.sample).
        func taps(_ count: Int, _ scale: Double, _ offset: Double, _ range: Range<Int>) -> [(Int, Int, UInt32)] {
            range.map { i in
                let p = scale * (Double(i) + 0.5) + offset
                if !bilinear {
                    let k = Int(min(Double(count - 1), max(0, p.rounded(.down))))
                    return (k, k, 0)
                }
                let u = p - 0.5
                let f = u.rounded(.down)
                let k0 = Int(max(-1, min(Double(count), f)))
                let w = UInt32(max(0, min(256, ((u - f) * 256).rounded())))
                return (max(0, min(count - 1, k0)), max(0, min(count - 1, k0 + 1)), w)
            }
        }
        let columns = taps(sampler.width, inverse.a, inverse.tx, region.x0..<region.x1)
        let rows = taps(sampler.height, inverse.d, inverse.ty, region.y0..<region.y1)
        let width = self.width
        source.data.withUnsafeBytes { sourceRaw in
            let src = sourceRaw.bindMemory(to: UInt32.self).baseAddress!
            drawable.data.withUnsafeMutableBytes { raw in
                let pixels = raw.bindMemory(to: UInt32.self).baseAddress!
                guard bilinear else {
                    for (r, row) in rows.enumerated() {
                        let d = pixels + (region.y0 + r) * width + region.x0
                        let ra = src + row.0 * sampler.width
                        for (c, col) in columns.enumerated() { Self.over(ra[col.0], d + c) }
                    }
                    return
                }
                // A source row's blends along the columns' taps are the same for every device
                // row that reads it (four of them under a 4× magnification, as the upper and
                // as the lower row): each is made once and kept while rows read it, then each
                // device pixel blends its two rows' (the same arithmetic, in the same order).
                let n = columns.count
                let upper = UnsafeMutablePointer<UInt32>.allocate(capacity: n), lower = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
                defer { upper.deallocate(); lower.deallocate() }
                var held = (upper: upper, upperRow: -1, lower: lower, lowerRow: -1)
                func across(_ sourceRow: Int, into out: UnsafeMutablePointer<UInt32>) {
                    let line = src + sourceRow * sampler.width
                    for (c, col) in columns.enumerated() { out[c] = ImageSampler.lerp(line[col.0], line[col.1], col.2) }
                }
                for (r, row) in rows.enumerated() {
                    if held.upperRow != row.0 {
                        if held.lowerRow == row.0 {
                            swap(&held.upper, &held.lower)
                            swap(&held.upperRow, &held.lowerRow)
                        } else {
                            across(row.0, into: held.upper)
                            held.upperRow = row.0
                        }
                    }
                    if held.lowerRow != row.1 {
                        across(row.1, into: held.lower)
                        held.lowerRow = row.1
                    }
                    let d = pixels + (region.y0 + r) * width + region.x0
                    let a = held.upper, b = held.lower, w = row.2
                    for c in 0..<n { Self.over(ImageSampler.lerp(a[c], b[c], w), d + c) }
                }
            }
        }
        return true
    }

    /// A premultiplied pixel over the one at `d` (an opaque one replaces it).
    @inline(__always)
    static func over(_ s: UInt32, _ d: UnsafeMutablePointer<UInt32>) {
        let a = s >> 24
        if a == 255 { d.pointee = s } else if a != 0 { d.pointee = s &+ Pixel.scale(d.pointee, 255 - a) }
    }

    /// Composites `image` (premultiplied) with its top-left pixel on device pixel `origin`; the
    /// clip applies, the transform does not. This is how colour glyphs are drawn.
    public func composite(_ image: Pixmap, atDevice origin: (x: Int, y: Int), opacity: Double = 1) {
        guard opacity.isFinite, abs(origin.x) < 1 << 30, abs(origin.y) < 1 << 30 else { return }
        blitAligned(image, x: origin.x, y: origin.y, opacity: min(1, max(0, opacity)), blendMode: .sourceOver)
    }

    /// Composites a pixmap at an integer offset (the sprite path: no scan conversion, no sampling).
    private func blitAligned(_ image: Pixmap, x: Int, y: Int, opacity: Double, blendMode: BlendMode) {
        let opacity8 = UInt32(RGBAColor.unitToByte(Float(opacity)))
        guard opacity8 > 0 else { return }
        let region = (clip?.bounds ?? fullRect).intersection(IntRect(x0: x, y0: y, x1: x + image.width, y1: y + image.height))
        guard !region.isEmpty else { return }
        let width = self.width
        let clipData = clip?.data
        image.data.withUnsafeBytes { sourceRaw in
            let source = sourceRaw.bindMemory(to: UInt32.self).baseAddress!
            drawable.data.withUnsafeMutableBytes { raw in
                let pixels = raw.bindMemory(to: UInt32.self).baseAddress!
                for row in region.y0..<region.y1 {
                    let d = pixels + row * width
                    let s = source + (row - y) * image.width - x
                    if clipData == nil && opacity8 == 255 && blendMode == .sourceOver {
                        for col in region.x0..<region.x1 {
                            let p = s[col]
                            let a = p >> 24
                            if a == 255 { d[col] = p } else if a != 0 { d[col] = p &+ Pixel.scale(d[col], 255 - a) }
                        }
                    } else {
                        for col in region.x0..<region.x1 {
                            var c = opacity8
                            if let clipData { c = Pixel.mul(c, UInt32(clipData[row * width + col])) }
                            if c != 0 { d[col] = Pixel.blend(s[col], into: d[col], coverage: c, mode: blendMode) }
                        }
                    }
                }
            }
        }
    }

    /// Averages k×k blocks (partial blocks at the right and bottom edges average what they have).
    /// The box-filter reduction `drawImage` applies first when `toDevice` shrinks an image
    /// (1: none). A caller drawing one image many times can reduce it once (`areaAverage`).
    public static func reductionFactor(_ toDevice: Transform) -> Int { Int(min(64, 1 / toDevice.maxScale)) }

    public static func areaAverage(_ image: Pixmap, factor k: Int) -> Pixmap? {
        let w = (image.width + k - 1) / k, h = (image.height + k - 1) / k
        guard var out = Pixmap(width: w, height: h) else { return nil }
        image.data.withUnsafeBufferPointer { src in
            out.data.withUnsafeMutableBufferPointer { dst in
                for oy in 0..<h {
                    let yEnd = min(image.height, (oy + 1) * k)
                    for ox in 0..<w {
                        let xEnd = min(image.width, (ox + 1) * k)
                        var sum = SIMD4<UInt32>(repeating: 0)
                        for y in (oy * k)..<yEnd {
                            var i = (y * image.width + ox * k) * 4
                            for _ in (ox * k)..<xEnd {
                                sum &+= SIMD4(UInt32(src[i]), UInt32(src[i + 1]), UInt32(src[i + 2]), UInt32(src[i + 3]))
                                i += 4
                            }
                        }
                        let n = UInt32((yEnd - oy * k) * (xEnd - ox * k))
                        let avg = (sum &+ SIMD4(repeating: n / 2)) / SIMD4(repeating: n)
                        let o = (oy * w + ox) * 4
                        dst[o] = UInt8(avg.x); dst[o + 1] = UInt8(avg.y); dst[o + 2] = UInt8(avg.z); dst[o + 3] = UInt8(avg.w)
                    }
                }
            }
        }
        return out
    }

    // MARK: - Plumbing

    private func makeSource(_ paint: Paint) -> Source? {
        guard paint.opacity.isFinite, paint.opacity > 0 || paint.blendMode != .sourceOver else { return nil }
        let opacity = min(1, max(0, paint.opacity))
        switch paint.shader {
        case .solid(let color):
            var c = color
            c.alpha = (c.alpha.isFinite ? min(1, max(0, c.alpha)) : 0) * Float(opacity)
            let packed = Pixel.pack(c.premultiplied)
            if packed >> 24 == 0 && (paint.blendMode == .sourceOver || paint.blendMode == .destinationOut) { return nil }
            return .solid(packed)
        case .linearGradient(let g):
            guard let table = GradientTable(stops: g.stops, opacity: opacity) else { return nil }
            let delta = g.end - g.start
            let lengthSquared = delta.dot(delta)
            guard let inverse = transform.inverted, lengthSquared > 0, lengthSquared.isFinite, g.start.isFinite else {
                return .solid(table.entries[255])
            }
            return .linear(table, g.spread, inverse: inverse, start: g.start, delta: delta, lengthSquared: lengthSquared)
        case .radialGradient(let g):
            guard let table = GradientTable(stops: g.stops, opacity: opacity) else { return nil }
            guard let inverse = transform.inverted, g.radius > 0, g.radius.isFinite, g.center.isFinite else {
                return .solid(table.entries[255])
            }
            return .radial(table, g.spread, inverse: inverse, center: g.center, radius: g.radius)
        }
    }

    /// Sets up a PaintSink over the pixmap and clip for the duration of `body`.
    private func blit(source: Source, mode: BlendMode, coverageScale: UInt32, _ body: (inout PaintSink, IntRect) -> Void) {
        let clipRect = clip?.bounds ?? fullRect
        guard !clipRect.isEmpty else { return }
        let width = self.width
        let clipData = clip?.data
        drawable.data.withUnsafeMutableBytes { raw in
            let pixels = raw.bindMemory(to: UInt32.self).baseAddress!
            span.withUnsafeMutableBufferPointer { spanBuffer in
                func run(_ clipPointer: UnsafePointer<UInt8>?) {
                    var sink = PaintSink(pixels: pixels, width: width, source: source, mode: mode, clip: clipPointer,
                                         coverageScale: coverageScale, span: spanBuffer.baseAddress!)
                    body(&sink, clipRect)
                }
                if let clipData {
                    clipData.withUnsafeBufferPointer { run($0.baseAddress!) }
                } else {
                    run(nil)
                }
            }
        }
    }
}
