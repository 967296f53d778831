// The CLI: dispatches to one subcommand (one file each: RenderCommand.swift, …), and turns turns every error into `error: …` on
// stderr and an exit code: 0 success, 1 runtime failure, 2 bad input or usage.
#if canImport(Glibc)
import Glibc
#endif
import Terrapin

/// A failure the CLI reports; `code` is the exit status.
struct CLIError: Error {
    let message: String
    let code: Int32

    static func usage(_ message: String, command: String? = nil) -> CLIError {
        let help = command.map { "terrapin \($0) --help" } ?? "terrapin --help"
        return CLIError(message: "\(message)\n(see '\(help)')", code: 2)
    }
    static func input(_ message: String) -> CLIError { CLIError(message: message, code: 2) }
    static func runtime(_ message: String) -> CLIError { CLIError(message: message, code: 1) }
}

enum CommandLineTool {
    static let help = """
        terrapin \(TerrapinInfo.version): render 3D map scenes with markers to PNG, on the CPU.

        Usage:
          terrapin render SCENE.json -o OUT.png [options]
          terrapin batch SCENES|DIRS... [--manifest FILE.jsonl] [-j N] [--sizes WxH,...] [--output TEMPLATE] [options]
          terrapin inspect SCENE.json [--json] [--size WxH] [--tap X,Y]...
          terrapin tap SCENE.json X Y
          terrapin schema
          terrapin format SCENE.json [-o OUT.json]
          terrapin frames SCENE.json --fps N --duration S (-o DIR | --apng OUT.png) [options]
          terrapin diff EXPECTED.png ACTUAL.png [-o DIFF.png] [options]
          terrapin style roadmap|light|dark|hybrid [--schema S] | --check STYLE.json
          terrapin serve --root DIR [--port 8080] [options]
          terrapin --help | --version
          terrapin help COMMAND

        Commands:
          render    render a scene file to a PNG image
          batch     render many scenes at several sizes on every core; resumable and shardable
          inspect   print where every marker and popover lands, and why hidden ones are hidden
          tap       say what a tap at X,Y hits
          schema    print the JSON Schema of scene files
          format    check a scene file and write it in canonical form
          frames    render a scene at successive times (camera flights) as PNGs or an animated PNG
          diff      compare two PNG images as the snapshot tests do
          style     print a built-in basemap style, or list what Terrapin skips in a style file
          serve     answer render and static-map requests over HTTP

        Exit status: 0 success, 1 runtime failure, 2 bad input or usage.
        """

    static func run(_ arguments: [String]) -> Int32 {
        // The worker processes of `terrapin serve` (not a command for people: not in the help).
        if arguments.first == "serve-worker" { return serveWorker(Array(arguments.dropFirst())) }
        do {
            try dispatch(arguments)
            return 0
        } catch let error as CLIError {
            printError(error.message)
            return error.code
        } catch let exit as CLIExit {
            return exit.code
        } catch {
            printError("\(error)")
            return 1
        }
    }

    static func printError(_ message: String) {
        let text = "error: \(message)\n"
        _ = try? FileIO.writeAll(Array(text.utf8), fd: 2, name: "<stderr>")
    }

    /// A line on standard error without the "error:" or "warning:" prefix (`--timings`).
    static func printNote(_ message: String) {
        _ = try? FileIO.writeAll(Array((message + "\n").utf8), fd: 2, name: "<stderr>")
    }

    static func printWarning(_ message: String) {
        _ = try? FileIO.writeAll(Array("warning: \(message)\n".utf8), fd: 2, name: "<stderr>")
    }

    static func printOut(_ text: String) {
        _ = try? FileIO.writeAll(Array((text + "\n").utf8), fd: 1, name: "<stdout>")
    }

    static func dispatch(_ arguments: [String]) throws {
        guard let command = arguments.first else { throw CLIError.usage("no command given") }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "-h", "--help": printOut(help)
        case "--version", "-V", "version": printOut("terrapin \(TerrapinInfo.version)")
        case "help":
            switch rest.first {
            case nil: printOut(help)
            case "render": printOut(renderHelp)
            case "diff": printOut(diffHelp)
            case "inspect": printOut(inspectHelp)
            case "tap": printOut(tapHelp)
            case "batch": printOut(batchHelp)
            case "schema": printOut(schemaHelp)
            case "format": printOut(formatHelp)
            case "frames": printOut(framesHelp)
            case "style": printOut(styleHelp)
            case "serve": printOut(serveHelp)
            case let other?: throw CLIError.usage("unknown command '\(other)'")
            }
        case "render": try render(rest)
        case "diff": try diff(rest)
        case "inspect": try inspect(rest)
        case "tap": try tap(rest)
        case "batch": try batch(rest)
        case "format": try format(rest)
        case "frames": try frames(rest)
        case "schema": try schema(rest)
        case "style": try style(rest)
        case "serve": try serve(rest)
        default:
            let commands = ["render", "batch", "inspect", "tap", "frames", "schema", "format", "diff", "style", "serve"]
            let guess = command.hasPrefix("-") ? nil : closest(to: command, in: commands)
            throw CLIError.usage("unknown command '\(command)'" + (guess.map { "; did you mean '\($0)'?" } ?? "")
                                 + (command.hasPrefix("-") ? "" : "; commands: " + commands.joined(separator: ", ")))
        }
    }

    /// Writes an output: `-` is standard output, anything else is written atomically (no
    /// partial file on failure, an existing file untouched until the new one is complete).
    static func writeOutput(_ bytes: [UInt8], to path: String) throws {
        do {
            if path == "-" { try FileIO.writeAll(bytes, fd: 1, name: "<stdout>") } else { try FileIO.writeAtomically(bytes, to: path) }
        } catch {
            throw CLIError.runtime(error.description)
        }
    }

    /// A number as the CLI prints it: whole numbers without a fraction.
    static func format(_ v: Double) -> String { v.rounded() == v && abs(v) < 1e9 ? String(Int(v)) : String(v) }

    static func format1(_ v: Double) -> String {
        let tenths = Int((v * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

/// Ends the command with an exit status and no message.
struct CLIExit: Error {
    let code: Int32
}
