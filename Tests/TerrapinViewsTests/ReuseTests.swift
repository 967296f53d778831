// What a render shares between drawings: shape masks named by ShapeIdentity, and text laid out
// once when it did not wrap. Each checked against drawing or laying out afresh.
import Testing
import TerrapinGeometry
import TerrapinRaster
import TerrapinTypography
@testable import TerrapinViews
import TerrapinDiff

/// A shape without stored properties: its type names it.
private struct Notch: Shape {
    func path(in r: Rect) -> Path {
        var b = PathBuilder()
        b.move(to: Point(r.minX, r.minY)); b.line(to: Point(r.maxX, r.minY)); b.line(to: Point(r.midX, r.maxY)); b.close()
        return b.build()
    }
}

/// A shape with state that is not Hashable: only its outline can name it.
private struct Inset: Shape {
    var amount: Double
    func path(in r: Rect) -> Path { PathBuilder.rect(r.insetBy(dx: amount, dy: amount)) }
}

/// A Hashable shape with state: its value names it.
private struct Wedge: Shape, Hashable {
    var lean: Double
    func path(in r: Rect) -> Path {
        var b = PathBuilder()
        b.move(to: Point(r.minX + lean, r.minY)); b.line(to: Point(r.maxX, r.maxY)); b.line(to: Point(r.minX, r.maxY)); b.close()
        return b.build()
    }
}

@Suite struct ShapeIdentityTests {
    @Test func identitiesTellShapesApart() {
        #expect(ShapeIdentity(Circle()) == ShapeIdentity(Circle()))
        #expect(ShapeIdentity(Circle()) != ShapeIdentity(Capsule()))
        #expect(ShapeIdentity(Circle()) != ShapeIdentity(Ellipse()))
        #expect(ShapeIdentity(RoundedRectangle(cornerRadius: 4)) == ShapeIdentity(RoundedRectangle(cornerRadius: 4)))
        #expect(ShapeIdentity(RoundedRectangle(cornerRadius: 4)) != ShapeIdentity(RoundedRectangle(cornerRadius: 5)))
        #expect(ShapeIdentity(RoundedRectangle(cornerRadius: 4)) != ShapeIdentity(RoundedRectangle(cornerRadius: 4, style: .circular)))
        #expect(ShapeIdentity(Notch()) == .type(ObjectIdentifier(Notch.self), 0))
        #expect(ShapeIdentity(Inset(amount: 1)) == nil)
        #expect(ShapeIdentity(Wedge(lean: 1)) == .value(AnyHashable(Wedge(lean: 1))))
        #expect(ShapeIdentity(Wedge(lean: 1)) != ShapeIdentity(Wedge(lean: 2)))
    }

    /// Shapes of each kind of identity, drawn many times at whole-pixel offsets: through the
    /// store the pixels are the direct drawing's (whole pixels, no phase change), and each
    /// distinct outline made its own mask — none borrowed another's.
    @Test func sharedMasksDrawWhatDirectDrawingDraws() throws {
        let view = VStack(spacing: 2) {
            ForEach(0..<6) { _ in
                HStack(spacing: 2) {
                    Notch().fill(Color.red).frame(width: 12, height: 10)
                    Inset(amount: 1).fill(Color.blue).frame(width: 12, height: 10)
                    Inset(amount: 3).fill(Color.blue).frame(width: 12, height: 10)
                    Wedge(lean: 2).fill(Color.green).frame(width: 12, height: 10)
                    Wedge(lean: 6).fill(Color.green).frame(width: 12, height: 10)
                    RoundedRectangle(cornerRadius: 3).stroke(Color.black, lineWidth: 1.5).frame(width: 12, height: 10)
                    Circle().fill(Color.orange).frame(width: 10, height: 10)
                }
            }
        }
        let layout = try ViewRenderer.layout(view)
        func draw(_ store: SpriteStore?) -> Pixmap {
            let canvas = Canvas(width: Int(layout.size.width.rounded(.up)), height: Int(layout.size.height.rounded(.up)))!
            layout.draw(in: canvas, at: Point(0, 0), scale: 1, sprites: store)
            return canvas.pixmap
        }
        let store = SpriteStore()
        let shared = draw(store), direct = draw(nil)
        #expect(shared.data == direct.data)
        // Seven outlines, each drawn six times: one direct drawing and one mask each, the rest reused.
        #expect(store.misses == 7 && store.hits == 7 * 4, "\(store.misses) masks, \(store.hits) reused")
    }
}

@Suite struct TextReuseTests {
    func node(_ text: String) throws -> TextNode {
        try #require(try makeNode(Text(text), EnvironmentValues()) as? TextNode)
    }

    /// A label measured in its frame and drawn at the width it measured is shaped once, and
    /// the lines are the ones laying it out afresh at that width gives.
    @Test func anUnwrappedLabelIsLaidOutOnce() throws {
        let label = try node("Marker 1000")
        let measured = label.layout(width: 120)
        let drawn = label.layout(width: measured.width + 1e-9)
        #expect(label.layoutsMade == 1)
        let fresh = try TextLayout.make("Marker 1000", font: label.font, options: TextLayoutOptions(maxWidth: measured.width + 1e-9))
        #expect(drawn.lines.map { $0.glyphs.map(\.x) } == fresh.lines.map { $0.glyphs.map(\.x) })
        #expect(drawn.width == fresh.width && drawn.height == fresh.height)
        _ = label.layout(width: nil)
        #expect(label.layoutsMade == 1, "unconstrained is the same layout")
    }

    /// Text that wrapped is laid out again at a new width, and narrower than its line it wraps.
    @Test func wrappedTextIsLaidOutAgain() throws {
        let text = try node("A label long enough to wrap")
        let narrow = text.layout(width: 60)
        #expect(narrow.lines.count > 1)
        let drawn = text.layout(width: narrow.width + 1e-9)
        #expect(text.layoutsMade == 2)
        #expect(drawn.lines.count == narrow.lines.count)
        let one = try node("Marker 1000")
        let wide = one.layout(width: 200)
        let squeezed = one.layout(width: wide.width / 2)
        #expect(one.layoutsMade == 2 && squeezed.lines.count > 1)
    }
}

@Suite struct ShapeGroupTests {
    /// A pin-like stack: body, outline and dot.
    struct Stack: View {
        let color: Color
        var body: some View {
            ZStack(alignment: .top) {
                Notch().fill(color)
                Notch().stroke(Color.white, lineWidth: 1.5)
                Circle().fill(Color.white).frame(width: 6, height: 6).padding(.top, 3)
            }
            .frame(width: 14, height: 16)
        }
    }

    func draw(_ view: some View, _ store: SpriteStore?) throws -> Pixmap {
        let layout = try ViewRenderer.layout(view)
        let canvas = Canvas(width: Int(layout.size.width.rounded(.up)), height: Int(layout.size.height.rounded(.up)))!
        canvas.clear(RGBAColor(red: 0.2, green: 0.5, blue: 0.3, alpha: 1))
        layout.draw(in: canvas, at: Point(0, 0), scale: 1, sprites: store)
        return canvas.pixmap
    }

    /// A ZStack of solid shapes drawn many times is one sprite per colour, made at its second
    /// drawing; the pixels are those of drawing each shape, but for edges where shapes overlap
    /// (one level at most: the sprite is composited once, not shape after shape).
    @Test func aStackOfShapesIsOneSprite() throws {
        let view = HStack(spacing: 3) {
            ForEach(0..<5) { _ in Stack(color: .red) }
            ForEach(0..<5) { _ in Stack(color: .blue) }
        }
        let store = SpriteStore()
        let grouped = try draw(view, store), direct = try draw(view, nil)
        // Each colour's first stack draws shape by shape (the red one's three shapes are seen,
        // the blue one's make their masks); its second makes the sprite, the other three reuse it.
        #expect(store.misses == 2 + 3 && store.hits == 2 * 3 && store.seen == 2 + 3, "\(store.misses) made, \(store.hits) reused, \(store.seen) seen")
        let (differing, largest) = { ($0.differingPixels, $0.largest) }(ChannelDifference(grouped, direct))
        #expect(largest <= 1, "\(differing) pixels differ, by up to \(largest)")
        #expect(store.bytes > 0)
    }

    /// A stack with anything but shapes in it (text here) draws shape by shape.
    @Test func aStackWithTextIsNotGrouped() throws {
        let view = HStack(spacing: 3) {
            ForEach(0..<4) { _ in ZStack { Circle().fill(Color.red); Text("1").font(.system(size: 8)) }.frame(width: 14, height: 14) }
        }
        let store = SpriteStore()
        _ = try draw(view, store)
        // The circle alone goes through the store: seen once, its mask made, then reused twice.
        #expect(store.seen == 1 && store.misses == 1 && store.hits == 2, "\(store.seen) seen, \(store.misses) made, \(store.hits) reused")
    }

    /// Past its byte limit a store makes nothing more: every drawing is direct.
    @Test func aFullStoreDrawsDirectly() throws {
        let view = HStack(spacing: 3) { ForEach(0..<4) { _ in Stack(color: .red) } }
        let store = SpriteStore(byteLimit: 16)
        let limited = try draw(view, store), direct = try draw(view, nil)
        #expect(store.misses == 0 && store.hits == 0 && store.bytes == 0)
        #expect(limited.data == direct.data)
    }
}

@Suite struct WordTableTests {
    /// Keys of every length up to 12 (prefixes of one another included), found again with their
    /// values; absent keys are not found; a value set through an entry stays set. The table
    /// grows several times on the way.
    @Test func keysAreFoundByTheirWordsOnly() {
        var table = WordTable<Int>()
        var keys: [[UInt64]] = []
        var seed: UInt64 = 7
        for n in 0..<600 {
            var key: [UInt64] = []
            for _ in 0..<(n % 13) {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                key.append(seed >> 60)   // few distinct words: many near-equal keys
            }
            if keys.contains(key) { continue }
            #expect(table.find(key, hash: WordTable<Int>.hash(key)) == nil)
            table.insert(key, hash: WordTable<Int>.hash(key), value: keys.count)
            keys.append(key)
        }
        #expect(table.count == keys.count && keys.count > 300)
        for (i, key) in keys.enumerated() {
            let entry = table.find(key, hash: WordTable<Int>.hash(key))
            #expect(entry.map { table[$0] } == i)
        }
        let e = table.find(keys[3], hash: WordTable<Int>.hash(keys[3]))!
        table[e] = -1
        #expect(table.find(keys[3], hash: WordTable<Int>.hash(keys[3])).map { table[$0] } == -1)
        #expect(table.find([99, 99, 99], hash: WordTable<Int>.hash([99, 99, 99])) == nil)
    }
}
