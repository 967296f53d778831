// terrapin: the command-line tool. All logic is in CommandLineTool; this file only exits.
#if canImport(Glibc)
import Glibc
#endif

exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
