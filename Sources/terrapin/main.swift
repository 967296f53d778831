// terrapin: the command-line tool. All logic is in CommandLineTool; this file only exits.
#if canImport(Glibc)
import Glibc
#endif

import TerrapinIO

// Freed canvases and tiles are kept for the next allocations, not unmapped and faulted in again.
Heap.keepFreedMemoryForReuse()
// A render, frames or format killed by a signal leaves no temporary file behind.
FileIO.removeTemporariesOnSignals()
// A crash ends the process at once, holding no pipe open (SWIFT_BACKTRACE=enable=yes: the
// runtime's backtrace instead).
FileIO.reportCrashesPlainly("terrapin: internal error, please report it with the input that caused it (signal ")
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
