// Snapshot comparison benchmarks on 1024x768 frames.
import Terrapin
import TerrapinDiff

func diffBenchmarks() -> [(String, Timing, String)] {
    let canvas = Canvas(width: 1024, height: 768)!
    canvas.clear(RGBAColor(red: 0.93, green: 0.95, blue: 0.92))
    drawSpecPins(canvas, specMarkers(1000))
    let expected = canvas.pixmap
    let same = expected  // a separate buffer after the first write below
    var copy = same
    copy[0, 0] = expected[0, 0]
    // A changed frame: 100 pins moved half a pixel, one region recoloured.
    let changedCanvas = Canvas(pixmap: expected)
    drawSpecPins(changedCanvas, specMarkers(100).map { (x: $0.x + 0.5, y: $0.y, color: $0.color) })
    changedCanvas.fill(PathBuilder.rect(Rect(x: 600, y: 300, width: 120, height: 80)), paint: Paint(color: RGBAColor(red: 1, green: 0, blue: 0)))
    let changed = changedCanvas.pixmap

    var results: [(String, Timing, String)] = []
    let identical = measure("identical") { _ = ImageDiff.compare(expected: expected, actual: copy) }
    results.append(("identical 1024x768", identical, ""))
    var summary = ""
    let different = measure("different") {
        var kinds: [UInt8] = []
        let result = ImageDiff.compare(expected: expected, actual: changed, options: .tolerant, kinds: &kinds)
        let diff = DiffImages.diff(expected: expected, kinds: kinds)
        _ = DiffImages.strip(expected: expected, diff: diff, actual: changed)
        summary = "\(result.differingPixels) px differ, \(result.antialiasedPixels) AA"
    }
    results.append(("different: tolerant diff + images", different, summary))
    return results
}
