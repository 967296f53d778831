// Bidirectional text: embedding levels from GNU FriBidi (the full Unicode Bidirectional
// Algorithm, UAX #9), and the visual reordering of a line's runs (rule L2).
import CFriBidi

public enum BaseDirection: Sendable {
    /// From the first strong character (rules P2–P3); left-to-right when there is none.
    case auto
    case leftToRight
    case rightToLeft
}

enum Bidi {
    // FriBidi's paragraph types are macro expressions Swift cannot import.
    static let parLTR = FriBidiParType(rawValue: 0x110), parRTL = FriBidiParType(rawValue: 0x111), parON = FriBidiParType(rawValue: 0x40)

    /// Embedding level of each scalar and the paragraph level (0 LTR, 1 RTL).
    static func levels(_ scalars: [Unicode.Scalar], base: BaseDirection) -> (levels: [UInt8], paragraph: UInt8) {
        let n = scalars.count
        guard n > 0 else { return ([], base == .rightToLeft ? 1 : 0) }
        var chars = scalars.map { FriBidiChar($0.value) }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        var levels = [FriBidiLevel](repeating: 0, count: n)
        fribidi_get_bidi_types(&chars, FriBidiStrIndex(n), &types)
        fribidi_get_bracket_types(&chars, FriBidiStrIndex(n), &types, &brackets)
        var direction: FriBidiParType = base == .auto ? parON : (base == .leftToRight ? parLTR : parRTL)
        let maxLevel = fribidi_get_par_embedding_levels_ex(&types, &brackets, FriBidiStrIndex(n), &direction, &levels)
        guard maxLevel > 0 else { return ([UInt8](repeating: 0, count: n), 0) }
        let paragraph: UInt8 = direction == parRTL ? 1 : 0
        return (levels.map { UInt8(bitPattern: $0) }, paragraph)
    }

    /// Rule L2: the visual order of items with the given levels (reverse every maximal
    /// sequence at level ≥ k, for k from the highest level down to the lowest odd level).
    static func visualOrder(_ levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), highest > 0 else { return order }
        let lowestOdd = (levels.filter { $0 % 2 == 1 }.min()) ?? highest
        var level = highest
        while level >= lowestOdd && level > 0 {
            var i = 0
            while i < order.count {
                if levels[order[i]] >= level {
                    var j = i
                    while j < order.count && levels[order[j]] >= level { j += 1 }
                    order[i..<j].reverse()
                    i = j
                } else {
                    i += 1
                }
            }
            level -= 1
        }
        return order
    }
}
