// Colours interpolated in the space a style asks for (`interpolate-hcl`, `interpolate-lab`, a
// function's "colorSpace"), checked against MapLibre's own images of the same stops.
import Testing
import TerrapinIO
@testable import TerrapinBasemap

@Suite struct ColourSpaceTests {
    /// `expression` at zoom 5, as bytes.
    func bytes(_ expression: String) throws -> [Int] {
        let parsed = try StyleExpressionParser.value(JSONParser.parse(Array(expression.utf8)), arrayValued: false)
        let c = try #require(parsed.evaluate(EvaluationContext(zoom: 5)).color)
        return [c.red, c.green, c.blue, c.alpha].map { Int(($0 * 255).rounded()) }
    }

    /// Purple to orange half way: (191, 86, 85) in Lab, as MapLibre's render-test image has it;
    /// (227, 40, 83) in HCL (the hue the short way round, through red: MapLibre's image has
    /// (245, 7, 53), within the suite's threshold of it); RGB is the plain mean.
    @Test func halfWayInEachSpace() throws {
        let stops = #"["zoom"], 0, "rgb(118,0,118)", 10, "rgb(255,155,0)"]"#
        let hcl = try bytes(#"["interpolate-hcl", ["linear"], "# + stops), lab = try bytes(#"["interpolate-lab", ["linear"], "# + stops)
        #expect(hcl == [227, 40, 83, 255], "\(hcl)")
        #expect(lab == [191, 86, 85, 255], "\(lab)")
        #expect(try bytes(#"["interpolate", ["linear"], "# + stops) == [187, 78, 59, 255])
        // A legacy function's "colorSpace" is the same; an unknown one is an error.
        #expect(try bytes(#"{"stops": [[0, "rgb(118,0,118)"], [10, "rgb(255,155,0)"]], "colorSpace": "hcl"}"#) == [227, 40, 83, 255])
        #expect(throws: ExpressionError.self) { try bytes(#"{"stops": [[0, "red"], [10, "blue"]], "colorSpace": "hsv"}"#) }
    }

    /// Colours interpolate premultiplied, as MapLibre Native interpolates them: a transparent
    /// stop is transparent black whatever colour it was written in, so from
    /// "rgba(255, 255, 255, 0)" and from "rgba(0, 0, 0, 0)" a colour fades in alike, keeping its
    /// own colour; greys have no hue, so HCL keeps the other stop's.
    @Test func transparentAndGreyStops() throws {
        let white = try bytes(#"["interpolate", ["linear"], ["zoom"], 0, "rgba(255, 255, 255, 0)", 10, "rgb(22, 73, 22)"]"#)
        let black = try bytes(#"["interpolate", ["linear"], ["zoom"], 0, "rgba(0, 0, 0, 0)", 10, "rgb(22, 73, 22)"]"#)
        #expect(white == black && white == [22, 73, 22, 128], "\(white)")
        let grey = try bytes(#"["interpolate-hcl", ["linear"], ["zoom"], 0, "rgb(128, 128, 128)", 10, "rgb(255, 0, 0)"]"#)
        #expect(grey[0] > grey[1] && grey[0] > grey[2], "reddish, not a hue from nowhere: \(grey)")
    }
}
