// terrapin: the command-line tool. All logic is in CommandLineTool; this file only exits.
#if canImport(Glibc)
import Glibc
#endif

import TerrapinIO

// A render, frames or format killed by a signal leaves no temporary file behind.
FileIO.removeTemporariesOnSignals()
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
