// terrapin format: a scene file in canonical form.
import Terrapin

extension CommandLineTool {
    static let formatHelp = """
        terrapin format: check a scene file and write it in canonical form — two-space indented,
        keys in the schema's order, defaults left out, numbers in their shortest exact form — the
        same text Swift code gets from SceneEncoder. Formatting a formatted file changes nothing.

        Usage:
          terrapin format SCENE.json [-o OUT.json]    (- reads standard input; without -o, standard output)

        Examples:
          terrapin format Examples/showcase.json
          terrapin format messy.json -o tidy.json
        """

    static func format(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "format")
        var outputPath: String?
        guard let positional = try parser.parse(help: formatHelp, { argument, parser in
            guard argument == "-o" || argument == "--output" else { return false }
            outputPath = try parser.value(for: argument)
            return true
        }) else { return }
        let scenePath = try parser.single(positional)
        let scene: SceneFile
        do { scene = try SceneDecoder.load(path: scenePath) } catch { throw CLIError.input(error.description) }
        try writeOutput(Array(SceneEncoder.encode(scene).utf8), to: outputPath ?? "-")
    }
}
