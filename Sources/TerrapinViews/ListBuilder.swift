// The part every result builder of lists shares: map content, map controls and keyframes each
// collect their pieces into an array, and differ only in what an expression and the final
// result are.

/// A result builder whose partial results are arrays of `Element`: blocks, `if`, `if`/`else`,
/// `for` and availability checks, each once. A conformer adds `buildExpression` (what one
/// statement contributes) and, if it wants, `buildFinalResult`.
public protocol ListBuilder {
    associatedtype Element
}

extension ListBuilder {
    public static func buildBlock(_ parts: [Element]...) -> [Element] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Element]?) -> [Element] { part ?? [] }
    public static func buildEither(first: [Element]) -> [Element] { first }
    public static func buildEither(second: [Element]) -> [Element] { second }
    public static func buildArray(_ parts: [[Element]]) -> [Element] { parts.flatMap { $0 } }
    public static func buildLimitedAvailability(_ part: [Element]) -> [Element] { part }
}
