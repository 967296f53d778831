// terrapin style: print a built-in basemap style, or check a style file and list what it skips.
import Terrapin
import TerrapinIO

extension CommandLineTool {
    static let styleHelp = """
        terrapin style: print a built-in MapLibre style (roadmap, light, dark, hybrid) to start a
        style of your own from, for vector tiles in the OpenMapTiles schema or, with --schema, in
        the Protomaps or Shortbread schema; or read a style file and list what Terrapin skips in
        it (warnings), exit status 2 if it cannot be used. --check also evaluates every layer's
        filter and properties at every half zoom of the layer's range, for features made from
        the keys each reads and the values it compares them with, and warns of each filter that
        is not true or false and each colour or number property that is not one somewhere
        (MapLibre then hides the feature, or draws the default). (A scene without a style of its own,
        or naming a built-in one, uses it for whichever schema its tiles are in.)

        Usage:
          terrapin style roadmap|light|dark|hybrid [--schema openmaptiles|protomaps|shortbread]
          terrapin style --check STYLE.json

        Examples:
          terrapin style roadmap > my-style.json
          terrapin style roadmap --schema protomaps > my-protomaps-style.json
          terrapin style --check my-style.json
        """

    static func style(_ arguments: [String]) throws {
        var check = false
        var schema = TileSchema.openmaptiles
        var parser = ArgumentParser(arguments, command: "style")
        guard let positional = try parser.parse(help: styleHelp, { argument, parser in
            switch argument {
            case "--check": check = true
            case "--schema": schema = try parser.choice(for: argument, TileSchema.self)
            default: return false
            }
            return true
        }) else { return }
        let name = try parser.single(positional)
        if !check {
            guard let json = BasemapStyle.builtinJSON(name, schema: schema) else {
                throw CLIError.usage("no built-in style '\(name)'; the built-in styles are \(BasemapStyle.builtinNames.joined(separator: ", "))", command: "style")
            }
            printOut(json)
            return
        }
        let bytes: [UInt8]
        do { bytes = try FileIO.read(name, limit: 16 * 1024 * 1024) } catch { throw CLIError.input(error.description) }
        let style: BasemapStyle
        do { style = try BasemapStyle.parse(bytes, file: name, directory: ".") } catch { throw CLIError.input(error.description) }
        let domains = style.checkDomains()
        printOut("\(name): \(style.layers.count) layers drawn or read, \(style.sources.count) sources, \(style.warnings.count) warnings")
        for w in style.warnings { printOut("warning: \(w)") }
        printOut("evaluated: \(domains.evaluations) expressions, every filter and property at every half zoom of its layer and for the features it can reach; \(domains.findings.count) failed")
        for f in domains.findings { printOut("warning: \(f)") }
    }
}
