// What a style layer's filter answered for each feature of a decoded tile layer, kept with that
// layer: a tile drawn again — the next render of a batch or a server, a view's neighbouring tile
// reading the same parent's data — asks no filter twice.
//
// A filter is pure: the same feature, tile and zoom give the same answer, so keeping answers
// changes no pixel. What it may not read is kept out: a filter reading a feature's state (which
// the scene sets, not the tile) is asked every time; one reading the zoom keeps its answers per
// zoom. Bounded: a decoded layer keeps the answers of `maxFilters` filters (two bits a feature
// each, 64 bytes a feature in all, less than the feature's own decoded arrays) and forgets them
// all when one more comes.
import Synchronization
import TerrapinIO
import TerrapinTiles

/// A style layer's filter over one decoded layer's features at one zoom, through the answers kept
/// with that layer. `finish()` keeps the answers found (call it when done, as by `defer`).
struct FeatureFilter {
    private let filter: StyleExpression?
    private let key: FilterAnswers.Key?
    private let store: FilterAnswers.Store
    private var answers: FilterAnswers?

    /// `tile`: the data tile the layer was decoded from (what `within` and `distance` place its
    /// features by); without one, nothing is kept.
    init(_ layer: BasemapStyle.Layer, _ data: VectorTile.Layer, zoom: Double, tile: TileID?) {
        filter = layer.filter
        store = data.filterAnswers
        key = tile == nil ? nil : layer.filterMemo.map { FilterAnswers.Key(filter: $0.id, zoom: $0.readsZoom ? zoom.bitPattern : 0) }
        answers = key.map { store.take($0, count: data.features.count) }
    }

    /// Whether the filter keeps feature `index` of the layer, `context` being that feature's.
    @inline(__always)
    mutating func keeps(_ index: Int, _ context: EvaluationContext) -> Bool {
        guard let filter else { return true }
        guard answers != nil else { return filter.evaluate(context).truthy }
        return answers!.answer(index) { filter.evaluate(context).truthy }
    }

    /// Whether feature `index` is known to be refused (asked before): what may be learnt before
    /// the feature's context is made.
    @inline(__always)
    func refuses(_ index: Int) -> Bool { answers?.refused(index) ?? false }

    /// The answers found kept with the layer.
    func finish() {
        if let key, let answers { store.keep(answers, for: key) }
    }
}

struct FilterAnswers: Sendable {
    /// A filter's answers, by its number and (for a filter reading it) the zoom's bits.
    struct Key: Hashable, Sendable {
        let filter: Int
        let zoom: UInt64
    }

    /// The most filters whose answers one decoded layer keeps.
    static let maxFilters = 256

    private static let counter = Atomic<Int>(0)
    /// A number no other parsed filter of this process has.
    static func newFilterID() -> Int { counter.add(1, ordering: .relaxed).newValue }

    /// Bit i of `asked`: feature i's answer is known; of `passed`: it passed.
    private var asked: [UInt64], passed: [UInt64]

    init(count: Int) {
        let words = (max(0, count) + 63) / 64
        asked = [UInt64](repeating: 0, count: words)
        passed = asked
    }

    /// Feature `i`'s answer: the kept one, or `ask()`'s, kept.
    @inline(__always)
    mutating func answer(_ i: Int, _ ask: () -> Bool) -> Bool {
        let word = i >> 6, bit = UInt64(1) << UInt64(i & 63)
        guard word < asked.count else { return ask() }
        if asked[word] & bit != 0 { return passed[word] & bit != 0 }
        let pass = ask()
        asked[word] |= bit
        if pass { passed[word] |= bit }
        return pass
    }

    /// Whether feature `i` was asked and refused.
    @inline(__always)
    func refused(_ i: Int) -> Bool {
        let word = i >> 6, bit = UInt64(1) << UInt64(i & 63)
        guard word < asked.count else { return false }
        return asked[word] & bit != 0 && passed[word] & bit == 0
    }

    /// The answers kept for a decoded layer, by filter.
    final class Store: Sendable {
        private let kept = Locked([Key: FilterAnswers]())

        init() {}

        /// The answers kept for `key` (taken out while a drawing fills them in; another thread
        /// drawing the same filter meanwhile starts afresh), or new ones for `count` features.
        func take(_ key: Key, count: Int) -> FilterAnswers {
            kept.withLock { $0.removeValue(forKey: key) } ?? FilterAnswers(count: count)
        }

        /// `answers` kept again for `key`.
        func keep(_ answers: FilterAnswers, for key: Key) {
            kept.withLock { store in
                if store[key] == nil, store.count >= FilterAnswers.maxFilters { store.removeAll() }
                store[key] = answers
            }
        }

        /// How many filters' answers are kept (for tests).
        var count: Int { kept.withLock { $0.count } }
    }
}
