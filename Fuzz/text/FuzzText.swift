// libFuzzer's entry points for the text target; what it does is FuzzEntry.text (TerrapinFuzzing).
import TerrapinFuzzing

@_cdecl("LLVMFuzzerInitialize")
func fuzzInitialize(_ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutableRawPointer?) -> Int32 {
    FuzzEntry.prepare()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzEntry.libFuzzer(.text, data, size, source: #filePath)
}
