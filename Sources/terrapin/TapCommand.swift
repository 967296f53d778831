// terrapin tap: what a tap at a point hits.
import Terrapin

extension CommandLineTool {
    static let tapHelp = """
        terrapin tap: say what a tap at X,Y (points from the top-left) hits: a popover, or the
        frontmost shown marker whose content's shape contains the point.

        Usage:
          terrapin tap SCENE.json X Y [--tap X,Y]... [--size WxH] [--root DIR]

        Earlier --tap options are applied first (e.g. to open a popover and then tap it).

        Examples:
          terrapin tap Examples/ferry-building-popover.json 200 126
        """

    static func tap(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "tap")
        var options = SceneOptions()
        guard let positional = try parser.parse(help: tapHelp, numbers: true, { argument, parser in try options.parse(argument, &parser) }) else { return }
        guard positional.count == 3, let x = Double(positional[1]), let y = Double(positional[2]), x.isFinite, y.isFinite else {
            throw CLIError.usage("expected SCENE X Y (points from the top-left)", command: "tap")
        }
        options.overrides.taps.append((Point(x, y), nil))
        let scene = try options.load(positional[0])
        var last: MapHit? = nil
        _ = try options.prepare(scene) { _, hit in last = hit }
        printOut(last.map { "hit: " + $0.summary } ?? "nothing at \(format(x)),\(format(y))")
    }
}
