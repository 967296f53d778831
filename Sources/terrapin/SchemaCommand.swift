// terrapin schema: the JSON Schema of scene files.
import Terrapin

extension CommandLineTool {
    static let schemaHelp = """
        terrapin schema [--markdown]: print the JSON Schema (draft 2020-12) of scene files, the
        same text as schema/scene.schema.json in the repository. Point an editor at it for
        completion and checking: "$schema": "https://…/scene.schema.json", or a local copy.
        With --markdown, print the reference of the scene objects' fields instead (key, type,
        unit, default, since, what), as docs/scene-fields.md holds it. Both come from the same
        field tables the decoder reads by.

        Examples:
          terrapin schema > scene.schema.json
          terrapin schema --markdown > scene-fields.md
        """

    static func schema(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "schema")
        var markdown = false
        guard let positional = try parser.parse(help: schemaHelp, { flag, _ in
            guard flag == "--markdown" else { return false }
            markdown = true
            return true
        }) else { return }
        guard positional.isEmpty else { throw CLIError.usage("schema takes no arguments", command: "schema") }
        printOut(markdown ? SceneSchema.markdown : SceneSchema.json)
    }
}
