// terrapin schema: the JSON Schema of scene files.
import Terrapin

extension CommandLineTool {
    static let schemaHelp = """
        terrapin schema: print the JSON Schema (draft 2020-12) of scene files, the same text as
        schema/scene.schema.json in the repository. Point an editor at it for completion and
        checking: "$schema": "https://…/scene.schema.json", or a local copy.

        Examples:
          terrapin schema > scene.schema.json
        """

    static func schema(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "schema")
        guard let positional = try parser.parse(help: schemaHelp, { _, _ in false }) else { return }
        guard positional.isEmpty else { throw CLIError.usage("schema takes no arguments", command: "schema") }
        printOut(SceneSchema.json)
    }
}
