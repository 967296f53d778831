// terrapin inspect: the resolved scene and its display list, as text or JSON.
import Terrapin

extension CommandLineTool {
    static let inspectHelp = """
        terrapin inspect: print the resolved scene — each marker's anchor and box in points, shown or
        hidden and why (collided with marker N, occluded, off-screen, …), the draw order and popovers.

        Usage:
          terrapin inspect SCENE.json [--json] [--size WxH] [--tap X,Y]...

        Options:
          --json        print it as JSON (points and metres unrounded, with what each tap hit)
          --size WxH    override the output size in points
          --tap X,Y[@T] tap at X,Y points before resolving (repeatable), at T seconds
          --time T      resolve at T seconds (camera flights)
          --heading D, --tilt D, --range M, --root DIR   as for render
          -h, --help    show this help

        Examples:
          terrapin inspect Examples/showcase.json
          terrapin inspect Examples/ferry-building-popover.json --tap 200,126
          terrapin inspect Examples/flight.json --time 4 --json
        """

    static func inspect(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "inspect")
        var options = SceneOptions()
        var json = false
        guard let positional = try parser.parse(help: inspectHelp, { argument, parser in
            if try options.parse(argument, &parser) { return true }
            guard argument == "--json" else { return false }
            json = true
            return true
        }) else { return }
        let scene = try options.load(try parser.single(positional))
        var taps: [JSONValue] = []
        let prepared = try options.prepare(scene) { tap, hit in
            if json {
                taps.append(.object([("x", .number(tap.x)), ("y", .number(tap.y))] + (hit?.json ?? [("hit", .null)])))
            } else {
                printOut("tap \(format(tap.x)),\(format(tap.y)): " + (hit?.summary ?? "nothing"))
            }
        }
        do {
            guard let resolved = try prepared.resolve() else {
                printOut(json ? JSONValue.object([("width", .number(Double(scene.output.width))), ("height", .number(Double(scene.output.height))),
                                                   ("map", .null)]).text
                              : "the scene has no map: \(scene.output.width)x\(scene.output.height) points of background")
                return
            }
            if json {
                guard case .object(let members) = resolved.json else { return }
                printOut(JSONValue.object([("taps", .array(taps))] + members).text)
            } else {
                printOut(resolved.description + "\n" + resolved.displayList)
                printOut("work: \(resolved.work(scale: Double(scene.output.scale)))")
                for w in prepared.warnings() { printOut("warning: \(w)") }
            }
        } catch {
            throw CLIError.input(error.description)
        }
    }
}
