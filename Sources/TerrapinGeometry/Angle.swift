// An angle, as in SwiftUI (`.degrees(35)`, `.radians(…)`): the camera's field of view and views'
// rotations. It keeps the unit it was given exactly, so `Angle.degrees(35).degrees` is 35 and
// `.radians(x).radians` is x (a field of view of 35° projects as it did when it was a number).

public struct Angle: Hashable, Sendable, CustomStringConvertible {
    private var storedRadians: Double
    private var storedDegrees: Double

    public init(radians: Double) { storedRadians = radians; storedDegrees = radians * 180 / Double.pi }
    public init(degrees: Double) { storedDegrees = degrees; storedRadians = degrees * Double.pi / 180 }
    public static func degrees(_ d: Double) -> Angle { Angle(degrees: d) }
    public static func radians(_ r: Double) -> Angle { Angle(radians: r) }

    public var radians: Double {
        get { storedRadians }
        set { self = Angle(radians: newValue) }
    }
    public var degrees: Double {
        get { storedDegrees }
        set { self = Angle(degrees: newValue) }
    }
    public static let zero = Angle(radians: 0)

    public static func == (a: Angle, b: Angle) -> Bool { a.storedRadians == b.storedRadians }
    public func hash(into hasher: inout Hasher) { hasher.combine(storedRadians) }
    public var description: String { "\(storedDegrees)°" }
}
