// Offscreen layers (opacity, shadow) are cut to what can show and share one budget: a view that
// nests them deeply over a huge frame cannot make a render allocate gigabytes.
import Foundation
import Testing
import TerrapinGeometry
import TerrapinRaster
@testable import TerrapinViews

@Suite struct LayerBudgetTests {
    func nested(_ depth: Int, side: Double) -> AnyView {
        var view = AnyView(Color.red.frame(width: side, height: side))
        for _ in 0..<depth { view = AnyView(view.opacity(0.99)) }
        return view
    }

    /// Opaque alpha after `levels` group opacities of 0.99, as 8-bit compositing rounds it.
    func alpha(after levels: Int) -> Int {
        var a = 255
        for _ in 0..<levels { a = (a * 252 + 127) / 255 }
        return a
    }

    /// Draws `view` laid out at its size into a `width`×`height` canvas at the origin.
    func draw(_ view: AnyView, width: Int, height: Int, budget: LayerBudget? = nil) throws -> (Canvas, LayerBudget) {
        let laidOut = try ViewRenderer.layout(view)
        let canvas = try #require(Canvas(width: width, height: height))
        let context = DrawContext(canvas: canvas, scale: 1, layers: budget)
        laidOut.node.draw(in: Rect(x: 0, y: 0, width: laidOut.size.width, height: laidOut.size.height), context)
        return (canvas, context.layers)
    }

    @Test func nestedOpacityLayersOverAHugeFrameAreCutToTheCanvas() throws {
        // 60 nested opacity layers over a 20000-point square, seen through a 64×48 canvas: each
        // layer is at most the canvas (they were 20000² less nothing, 64 px more per level).
        let (canvas, budget) = try draw(nested(60, side: 20_000), width: 64, height: 48)
        #expect(budget.peak <= 60 * 64 * 48, "held \(budget.peak) pixels at once")
        #expect(budget.refused == 0)
        // 0.99 (252/255 in 8 bits) applied 60 times to opaque red.
        #expect(abs(Int(canvas.pixmap[32, 24].alpha) - alpha(after: 60)) <= 3, "\(canvas.pixmap[32, 24])")
    }

    @Test func layersPastTheBudgetDrawTheirContentDirectly() throws {
        // Room for three canvas-sized layers: the four inner levels draw without a layer.
        let budget = LayerBudget(pixels: 3 * 64 * 48)
        let (canvas, used) = try draw(nested(7, side: 20_000), width: 64, height: 48, budget: budget)
        #expect(used.peak <= 3 * 64 * 48 && used.refused == 4, "peak \(used.peak), refused \(used.refused)")
        // Three group opacities applied (the refused levels' opacities are not).
        #expect(abs(Int(canvas.pixmap[10, 10].alpha) - alpha(after: 3)) <= 1, "\(canvas.pixmap[10, 10])")
    }

    @Test func aLayerOffTheCanvasIsNotMade() throws {
        let laidOut = try ViewRenderer.layout(AnyView(Color.red.frame(width: 10, height: 10).opacity(0.5)))
        let canvas = try #require(Canvas(width: 64, height: 48))
        canvas.transform = .translation(500, 500)
        let context = DrawContext(canvas: canvas, scale: 1)
        laidOut.node.draw(in: Rect(x: 0, y: 0, width: 10, height: 10), context)
        #expect(context.layers.peak == 0)
    }

    @Test func shadowBlurIsCappedInDevicePixels() throws {
        // radius 500 at scale 4 asks for σ = 2000 device pixels; the cap is 256, so the layer
        // reaches 3σ + 2 ≈ 770 px past the canvas, not 6000.
        let laidOut = try ViewRenderer.layout(AnyView(Color.red.frame(width: 10, height: 10).shadow(radius: 500)))
        let canvas = try #require(Canvas(width: 256, height: 192))
        canvas.transform = .scale(4)
        let context = DrawContext(canvas: canvas, scale: 4)
        laidOut.node.draw(in: Rect(x: 0, y: 0, width: 10, height: 10), context)
        let side = 40 + 2 * (3 * 256 + 2)
        #expect(context.layers.peak > 0 && context.layers.peak <= (side + 4) * (side + 4), "\(context.layers.peak)")
    }
}
