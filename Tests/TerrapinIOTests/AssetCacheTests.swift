import Testing
import TerrapinIO

final class Box: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

@Suite struct AssetCacheTests {
    /// A value kept by its maker's key is made once; another key, or another kind with the same
    /// key, is made anew.
    @Test func keyedValuesAreMadeOnce() {
        let cache = AssetCache(costLimit: 1000)
        var made = 0
        func get(_ kind: String, _ key: String) -> Box { cache.value(kind, key: key, cost: { (_: Box) in 10 }) { made += 1; return Box(key) } }
        let a = get("basemap", "a")
        #expect(get("basemap", "a") === a && made == 1)
        _ = get("basemap", "b"); _ = get("other", "a")
        #expect(made == 3 && cache.bytesHeld == 30)
    }

    /// Past the budget the least recently used go first; a value over half the budget is made
    /// but not kept.
    @Test func theBudgetHoldsLeastRecentlyUsedOut() {
        let cache = AssetCache(costLimit: 100)
        func get(_ key: String, cost: Int) -> Box { cache.value("k", key: key, cost: { (_: Box) in cost }) { Box(key) } }
        let a = get("a", cost: 40)
        _ = get("b", cost: 40)
        #expect(get("a", cost: 40) === a)  // a is now the most recent
        _ = get("c", cost: 40)  // b goes
        #expect(cache.bytesHeld == 80)
        #expect(get("a", cost: 40) === a)
        let big = get("big", cost: 60)
        #expect(get("big", cost: 60) !== big && cache.bytesHeld == 80)
    }

    /// Two makers of one value at once: the first kept is the one both get.
    @Test func aRacedValueIsShared() {
        let cache = AssetCache(costLimit: 1000)
        var inner: Box?
        let outer = cache.value("k", key: "x", cost: { (_: Box) in 1 }) { () -> Box in
            // Another render makes and keeps the same value while this one is being made.
            inner = cache.value("k", key: "x", cost: { (_: Box) in 1 }) { Box("inner") }
            return Box("outer")
        }
        #expect(outer === inner && outer.name == "inner")
    }
}
