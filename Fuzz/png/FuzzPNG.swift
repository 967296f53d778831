// libFuzzer's entry points for the png target; what it does is FuzzEntry.png (TerrapinFuzzing).
import TerrapinFuzzing

@_cdecl("LLVMFuzzerInitialize")
func fuzzInitialize(_ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutableRawPointer?) -> Int32 {
    FuzzEntry.prepare()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzEntry.libFuzzer(.png, data, size, source: #filePath)
}
