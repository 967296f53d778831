// A hash table keyed by runs of 64-bit words, looked up without building a key value.
//
// The sprite store names a drawing by a few dozen words (shape names, places, sizes, colours,
// scale, phase). As a Hashable struct of arrays every lookup allocated the arrays and hashed
// them through the standard library's generic path — a tenth of a 10,000-marker paint. Here the
// caller writes the words into a scratch buffer it keeps, a lookup hashes and compares them in
// place, and only an insertion copies them (into one arena shared by every key).

struct WordTable<Value> {
    private struct Entry {
        let hash: UInt64
        let start: Int, count: Int
        var value: Value
    }
    /// Open addressing: entry index + 1, 0 for an empty slot; a power of two long.
    private var slots: [Int32] = []
    private var entries: [Entry] = []
    private var arena: [UInt64] = []

    var count: Int { entries.count }
    /// Words held by the keys.
    var keyWords: Int { arena.count }

    static func hash(_ words: [UInt64]) -> UInt64 {
        var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(words.count)
        for w in words {
            h = (h ^ w) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
        }
        return h
    }

    /// The index of the entry whose key is `words` (hashed to `hash`), nil when there is none.
    func find(_ words: [UInt64], hash: UInt64) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        return words.withUnsafeBufferPointer { key in
            arena.withUnsafeBufferPointer { stored in
                while true {
                    let s = Int(slots[i])
                    if s == 0 { return nil }
                    let e = entries[s - 1]
                    if e.hash == hash, e.count == key.count {
                        var same = true
                        for k in 0..<key.count where stored[e.start + k] != key[k] { same = false; break }
                        if same { return s - 1 }
                    }
                    i = (i + 1) & mask
                }
            }
        }
    }

    subscript(entry: Int) -> Value {
        get { entries[entry].value }
        set { entries[entry].value = newValue }
    }

    /// Adds `words` (not present; hashed to `hash`) with `value`.
    mutating func insert(_ words: [UInt64], hash: UInt64, value: Value) {
        if (entries.count + 1) * 2 > slots.count { grow() }
        entries.append(Entry(hash: hash, start: arena.count, count: words.count, value: value))
        arena.append(contentsOf: words)
        place(entries.count - 1)
    }

    private mutating func place(_ entry: Int) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: entries[entry].hash) & mask
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = Int32(entry + 1)
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: max(64, slots.count * 2))
        for e in entries.indices { place(e) }
    }
}
