// One work budget for the whole render: load, resolve's forecast and paint draw from the same
// meter, so work that each stage's own limit would allow is refused once it adds up, with exit
// status 2's message naming the input that spent last and the kind that spent most.
import Foundation
import Testing
import TerrapinIO
import TerrapinTestSupport
@testable import TerrapinRender
@testable import TerrapinScene

@Suite struct WorkBudgetTests {
    static func scene(_ name: String) throws -> SceneFile { try SceneDecoder.load(path: Repository.examples + "/\(name).json") }

    /// A basemap scene spends from every stage it has: the forecast, and paint's style pixels
    /// (each render draws its tiles again); the meter's shares add up to its total.
    @Test func aRenderSpendsFromEveryStageItHas() throws {
        let prepared = try PreparedScene(try Self.scene("monaco-web-map"))
        _ = try prepared.render()
        let meter = try #require(prepared.lastMeter)
        #expect(meter.share(of: .forecast) > 0)
        #expect(meter.share(of: .stylePixels) > 0)
        let sum = WorkMeter.Kind.allCases.reduce(0) { $0 + meter.share(of: $1) }
        #expect(abs(sum - meter.share) < 1e-12)
        // A real scene is far from the budget.
        #expect(meter.share < 0.05)
        #expect(meter.description.hasSuffix(")") && meter.description.contains("style pixels"))
    }

    /// Under a budget that the load and the drawing forecast fit but the painting does not —
    /// though each stage alone is within what it may spend — the same scene is refused while it
    /// paints, and the refusal names a style layer's tile and the kinds spent; with room, the
    /// same bytes as under the standard budget.
    @Test func workThatAddsUpPastTheBudgetIsRefused() throws {
        let scene = try Self.scene("monaco-web-map")
        let full = try PreparedScene(scene)
        let expected = try full.render()
        let cold = try #require(full.lastMeter)
        // Rendered again: what a render of it spends at the least (its tiles decoded already).
        _ = try full.render()
        let warm = try #require(full.lastMeter)
        let style = warm.share(of: .stylePixels)
        #expect(style > 0)
        // Twice what it needs: drawn, and the same bytes.
        let roomy = try PreparedScene(scene, budget: cold.share * 2)
        #expect(try roomy.render().data == expected.data)
        // Room for all but half the style's pixels of its warmest render: refused, with no image.
        let tight = try PreparedScene(scene, budget: warm.share - style / 2)
        do {
            _ = try tight.render()
            Issue.record("not refused")
        } catch {
            guard case .overBudget(let message) = error else { Issue.record("expected overBudget, got \(error)"); return }
            #expect(message.hasPrefix("the render's work budget ran out at layer '"))
            #expect(message.contains(" of the style in tile "))
            #expect(message.contains("style pixels"))
            #expect(message.contains("the drawing forecast"))
            let spent = try #require(tight.lastMeter)
            #expect(spent.isExhausted)
            // Painting stopped soon after: the spending did not run far past the budget.
            #expect(spent.share < 1.5)
        }
    }
}
