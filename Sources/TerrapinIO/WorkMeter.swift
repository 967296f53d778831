// One render's work budget, drawn from by every stage as it works: load (decoded images of every
// format, inflated tiles and archive metadata, GeoTIFF blocks, SQLite steps), resolve (the drawing
// forecast, `WorkEstimate`) and paint (a style's fills and lines, model pixels, strings style
// expressions make). Each kind of work has a limit that alone would take about 12 s of one core
// or most of the 1 GiB a render may hold; the shares spent add up, and past 1 the meter is
// exhausted: whoever spends next is told no, the render stops at its next check and is refused
// naming the input that spent last and the kind of work that spent most.
//
// The render that owns a meter binds it with `WorkMeter.$current.withValue(meter) { … }`; code
// deep in a stage spends through `WorkMeter.spend(_:_:on:)` without the meter being passed down
// (a task-local: each render in a batch or a service sees its own). Work a cache saves (a tile or
// image decoded by an earlier render in the same process) is not charged again.
public final class WorkMeter: Sendable, CustomStringConvertible {
    /// The kinds of work, each with its limit.
    public enum Kind: Int, CaseIterable, Sendable, CustomStringConvertible {
        /// Bytes decoded or inflated and held: images of every format (markers, sprites, patterns,
        /// imagery tiles, glTF textures), vector tiles, archive directories, metadata and
        /// attribution, GeoTIFF blocks. 1 GiB.
        case decodedBytes
        /// Tile pixels a style's fills, lines, roofs and patterns cover (each feature's cost as
        /// the per-tile coverage counts it). 4 G: about 3 ns each.
        case stylePixels
        /// Pixels the depth-tested rasteriser tests for models, overdraw included. 1.2 G: about
        /// 10 ns each.
        case modelPixels
        /// Characters strings style expressions make (`concat`, `text-field`, `format`). 256 Mi.
        case stringBytes
        /// SQLite virtual-machine steps of a render's MBTiles reads, counted in the long
        /// statements SQLite reports (every 1,000 steps). 1 G: about 10 s.
        case databaseSteps
        /// The drawing forecast made before a pixel is drawn (`WorkEstimate`'s share, 1 = all).
        case forecast

        public var limit: Double {
            switch self {
            case .decodedBytes: 1_073_741_824
            case .stylePixels: 4e9
            case .modelPixels: 1.2e9
            case .stringBytes: 268_435_456
            case .databaseSteps: 1e9
            case .forecast: 1
            }
        }

        public var description: String {
            switch self {
            case .decodedBytes: "decoded bytes"
            case .stylePixels: "style pixels"
            case .modelPixels: "model pixels"
            case .stringBytes: "expression string bytes"
            case .databaseSteps: "SQLite steps"
            case .forecast: "the drawing forecast"
            }
        }

        /// What a user can do about this kind running out.
        var advice: String {
            switch self {
            case .decodedBytes: "use fewer or smaller images, tiles and archives, or a smaller output"
            case .stylePixels: "use a style with fewer overlapping fills and lines, or a smaller output"
            case .modelPixels: "use fewer or simpler models, or a smaller output"
            case .stringBytes: "use shorter text fields in the style"
            case .databaseSteps: "use an MBTiles file whose tiles are a table, not a computed view"
            case .forecast: "use fewer or smaller shapes, views and texts, or a smaller output"
            }
        }
    }

    /// Where the meter ran out: the kind and input of the spend that passed 1.
    public struct Exhaustion: Sendable, Equatable {
        public let kind: Kind
        public let input: String
    }

    private struct State {
        var spent = [Double](repeating: 0, count: Kind.allCases.count)
        var exhaustion: Exhaustion?
    }

    private let state: Locked<State>
    /// Told when the meter is exhausted (the render's stop signal, so painting stops soon after).
    private let stop: Cancellation?
    /// All limits multiplied by this (tests run the meter small).
    public let scale: Double

    /// The meter of the render running on this task or thread, if any.
    @TaskLocal public static var current: WorkMeter?

    /// A fresh meter; with `continuing`, starting from what that one spent (a render of a scene
    /// whose load already spent from the load's meter). `stop` is cancelled when it runs out.
    public init(scale: Double = 1, continuing other: WorkMeter? = nil, stop: Cancellation? = nil) {
        self.scale = scale
        var start = State()
        if let other { start = other.state.withLock { $0 } }
        state = Locked(start)
        self.stop = stop
    }

    /// Spends `amount` of `kind` on `input` (named in the refusal should this spend exhaust the
    /// meter). False when the meter is, or now is, exhausted: the caller should not do the work.
    @discardableResult
    public func spend(_ kind: Kind, _ amount: Double, on input: @autoclosure () -> String) -> Bool {
        guard amount > 0 || amount.isNaN else { return !isExhausted }
        let share = amount.isFinite ? amount / (kind.limit * scale) : .infinity
        let ranOut: Bool = state.withLock { s in
            if s.exhaustion != nil { return false }
            s.spent[kind.rawValue] += share
            if !(s.spent.reduce(0, +) <= 1) {
                s.exhaustion = Exhaustion(kind: kind, input: input())
                return true
            }
            return false
        }
        if ranOut { stop?.cancel() }
        return !isExhausted
    }

    /// Spends on the meter of the current render, if there is one (true when there is none).
    @discardableResult
    public static func spend(_ kind: Kind, _ amount: Double, on input: @autoclosure () -> String) -> Bool {
        guard let meter = current else { return true }
        return meter.spend(kind, amount, on: input())
    }

    /// A decoder's words for a refusal because the meter ran out (as the limit it passed).
    public static let noRoom = "the render's work budget, spent"

    /// Whether the current render's meter has run out.
    public static var isExhausted: Bool { current?.isExhausted ?? false }

    public var isExhausted: Bool { state.withLock { $0.exhaustion != nil } }

    public var exhaustion: Exhaustion? { state.withLock { $0.exhaustion } }

    /// The share of the budget spent on `kind` (1 = the whole budget).
    public func share(of kind: Kind) -> Double { state.withLock { $0.spent[kind.rawValue] } }

    /// The share of the budget spent in all (over 1 once exhausted).
    public var share: Double { state.withLock { $0.spent.reduce(0, +) } }

    /// Why the meter ran out, for a refusal: the input whose spend passed the budget, the kind
    /// with the largest share and what to do.
    public var refusal: String? {
        let (spent, exhaustion) = state.withLock { ($0.spent, $0.exhaustion) }
        guard let exhaustion else { return nil }
        let largest = Kind.allCases.max { spent[$0.rawValue] < spent[$1.rawValue] } ?? exhaustion.kind
        return "the render's work budget ran out at \(exhaustion.input): \(Self.parts(spent)) of it spent "
            + "(the largest: \(largest)\(largest == .forecast ? "" : ", whose limit alone is \(Self.limitText(largest, scale: scale))")); \(largest.advice)"
    }

    /// The shares spent, e.g. "4 % of the work budget (decoded bytes 1 %, style pixels 3 %)".
    public var description: String {
        let spent = state.withLock { $0.spent }
        let parts = Self.parts(spent)
        return "\(Self.percent(spent.reduce(0, +))) of the work budget" + (parts.isEmpty ? "" : " (\(parts))")
    }

    /// The kinds spent on, with their shares: "decoded bytes 1 %, style pixels 3 %".
    static func parts(_ spent: [Double]) -> String {
        Kind.allCases.filter { spent[$0.rawValue] > 0 }.map { "\($0) \(percent(spent[$0.rawValue]))" }.joined(separator: ", ")
    }

    /// A share as a percentage: whole above 10 %, to a tenth below ("0.4 %"), "<0.1 %" below that.
    static func percent(_ share: Double) -> String {
        let p = share * 100
        guard p.isFinite else { return "\(p) %" }
        if p >= 10 || p == 0 { return "\(Int(min(p, 1e15).rounded())) %" }
        return p >= 0.1 ? "\((p * 10).rounded() / 10) %" : "<0.1 %"
    }

    static func limitText(_ kind: Kind, scale: Double) -> String {
        let n = kind.limit * scale
        switch kind {
        case .decodedBytes, .stringBytes:
            return n >= 1_073_741_824 ? "\(count(n / 1_073_741_824)) GiB" : "\(count(n / 1_048_576)) MiB"
        default: return count(n)
        }
    }

    /// An amount of work in words: "5.0 G", "12.3 M", "7680", "unbounded" (not finite).
    public static func count(_ n: Double) -> String {
        guard n.isFinite else { return "unbounded" }
        return n >= 1e9 ? "\(Double(Int(min(n, 1e24) / 1e8)) / 10) G" : n >= 1e6 ? "\(Double(Int(n / 1e5)) / 10) M" : "\(Int(max(-1e15, n)))"
    }
}
