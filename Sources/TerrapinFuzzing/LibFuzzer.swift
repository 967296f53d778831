// libFuzzer's entry points, for every fuzz executable (Fuzz/<target>, built by `make fuzz`):
// the target is the executable's name, `fuzz-<target>`. They are plain C symbols that nothing
// else calls, so they are inert in any other program that links this module.

/// The target this process fuzzes, from its executable's name; nil outside a fuzz executable.
let fuzzedTarget: FuzzTarget? = {
    let name = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? ""
    return name.hasPrefix("fuzz-") ? FuzzTarget(rawValue: String(name.dropFirst(5))) : nil
}()

/// The repository (for Fixtures/ and Examples/), from this file's place in it.
let repository = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")

@_cdecl("LLVMFuzzerInitialize")
func fuzzInitialize(_ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutableRawPointer?) -> Int32 {
    guard fuzzedTarget != nil else { fatalError("a fuzz executable's name is fuzz-<target>, one of \(FuzzTarget.allCases.map(\.rawValue))") }
    FuzzEntry.prepare()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target = fuzzedTarget else { return 0 }
    FuzzEntry.run(target, data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [], repository: repository)
    return 0
}
