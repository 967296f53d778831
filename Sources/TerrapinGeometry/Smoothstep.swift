// GLSL's smoothstep, the edge of MapLibre's circle and signed-distance shaders, which Terrapin
// reproduces for circles, signed-distance icons and a style's text.

/// 0 at `e0`, 1 at `e1` (either way round), cubic between: GLSL's `smoothstep(e0, e1, x)`.
@inlinable
public func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
    let t = min(1, max(0, (x - e0) / (e1 - e0)))
    return t * t * (3 - 2 * t)
}
