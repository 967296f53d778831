import Testing
import TerrapinIO

@Suite struct SHA256Tests {
    func hex(_ s: String) -> String {
        var h = SHA256()
        h.update(s)
        return SHA256.hex(h.finalize())
    }

    @Test func knownAnswers() {
        // FIPS 180-4 examples.
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(String(repeating: "a", count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalUpdatesEqualOneShot() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var whole = SHA256()
        whole.update(bytes)
        let expected = whole.finalize()
        for split in [0, 1, 63, 64, 65, 500, 999] {
            var parts = SHA256()
            parts.update(bytes[0..<split])
            parts.update(bytes[split...])
            #expect(parts.finalize() == expected, "split at \(split)")
        }
    }
}
