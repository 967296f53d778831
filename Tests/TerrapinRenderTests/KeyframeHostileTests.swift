// Keyframes with values no flight should have — NaN and huge positions, ranges and angles,
// NaN, infinite and negative durations, a hundred thousand keyframes, degenerate springs —
// each drawn at several times: a frame is drawn or refused with a typed error, never a trap,
// and the timeline's numbers stay finite where the keyframes' are.
import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinRender

private let monaco = Camera(center: .init(latitude: 43.735, longitude: 7.4215, altitude: 0), heading: 40, tilt: 60, range: 1200)

private func camera(_ lat: Double = 43.735, _ lng: Double = 7.4215, alt: Double = 0, heading: Double = 40, tilt: Double = 60, range: Double = 1200, fov: Double = 35) -> Camera {
    var c = Camera(center: .init(latitude: lat, longitude: lng, altitude: alt), heading: heading, tilt: tilt, range: range)
    c.fieldOfView = .degrees(fov)
    return c
}

private enum K {
    case linear(Camera, Double), cubic(Camera, Double), spring(Camera, Double?, Spring)
}

private struct Flight: View {
    let track: [K]
    var body: some View {
        Map(camera: .constant(monaco), mode: .roadmap)
            .keyframeAnimator(initialValue: monaco, repeating: true, content: { _, value in
                Map(camera: .constant(value), mode: .roadmap)
            }, keyframes: { _ in
                KeyframeTrack {
                    for k in track {
                        switch k {
                        case .linear(let c, let d): LinearKeyframe(c, duration: d)
                        case .cubic(let c, let d): CubicKeyframe(c, duration: d)
                        case .spring(let c, let d, let s): SpringKeyframe(c, duration: d, spring: s)
                        }
                    }
                }
            })
    }
}

@Suite struct KeyframeHostileTests {
    private static let cases: [(String, [K])] = [
        ("NaN position", [.linear(camera(.nan, .nan), 1)]),
        ("huge numbers", [.linear(camera(1e308, -1e308, alt: 1e308, heading: 1e300, tilt: 1e9, range: 1e308, fov: 1e9), 1)]),
        ("zero and negative range and field of view", [.cubic(camera(range: 0, fov: 0), 1), .cubic(camera(range: -5, fov: -90), 1)]),
        ("bad durations", [.linear(camera(43.74), .nan), .linear(camera(43.75), .infinity), .linear(camera(43.76), -5), .cubic(camera(43.77), .greatestFiniteMagnitude)]),
        ("degenerate springs", [.spring(camera(43.74), 1, Spring(duration: 1e-300, bounce: 0.999)), .spring(camera(43.75), nil, Spring(duration: .nan, bounce: .nan)),
                                .spring(camera(43.76), .infinity, Spring(duration: -1, bounce: -50))]),
        ("a hundred thousand keyframes", (0..<100_000).map { i in .cubic(camera(43.73 + Double(i % 7) * 1e-3), 1e-4) }),
    ]

    @Test(arguments: 0..<cases.count)
    func aHostileFlightIsDrawnOrRefused(_ index: Int) throws {
        let (name, track) = Self.cases[index]
        let view = Flight(track: track)
        for t in [0, 0.5, 1, 1.5, 7, 1e9, .greatestFiniteMagnitude] as [Double] {
            do {
                let image = try ViewRenderer.render(view.frame(width: 64, height: 48), scale: 1, time: t)
                #expect(image.width == 64 && image.height == 48, "\(name) at \(t)")
            } catch {
                // A typed error that says what is wrong, not a crash.
                #expect(!"\(error)".isEmpty, "\(name) at \(t)")
            }
        }
    }
}
