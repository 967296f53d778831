// The compiler plugin behind `#Preview { … }`: Xcode's previews have no place in a headless
// renderer, so the macro expands to nothing and app files that end with a preview compile as
// they are. Written against the compiler's plugin protocol itself (no package outside the
// toolchain can be fetched here): each message is an 8-byte little-endian length and that
// many bytes of JSON; the host asks for the plugin's capability, then for expansions.
import Foundation

/// Reads exactly `count` bytes from standard input; nil at its end.
func read(_ count: Int) -> Data? {
    var data = Data()
    while data.count < count {
        let chunk = FileHandle.standardInput.readData(ofLength: count - data.count)
        if chunk.isEmpty { return nil }
        data.append(chunk)
    }
    return data
}

func send(_ message: [String: Any]) {
    guard let json = try? JSONSerialization.data(withJSONObject: message) else { return }
    var length = UInt64(json.count).littleEndian
    let header = withUnsafeBytes(of: &length) { Data($0) }
    FileHandle.standardOutput.write(header + json)
}

/// Messages are bounded: a preview's source is small, and the host is the compiler.
let maxMessage = 64 << 20

while let header = read(8) {
    let length = header.withUnsafeBytes { Int(UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self))) }
    guard length > 0, length <= maxMessage, let body = read(length),
          let message = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { break }
    if message["getCapability"] != nil {
        send(["getCapabilityResult": ["capability": ["protocolVersion": 7]]])
    } else if message["expandFreestandingMacro"] != nil || message["expandAttachedMacro"] != nil {
        send(["expandMacroResult": ["expandedSource": "", "diagnostics": [] as [Any]]])
    } else {
        // A request this plugin does not know (a newer host's): answer with no expansion.
        send(["expandMacroResult": ["diagnostics": [] as [Any]]])
    }
}
