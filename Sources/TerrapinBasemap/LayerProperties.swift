// A style layer's drawing properties at one zoom, as `drawFeatures` reads them feature by
// feature: each property absent, the same for every feature (evaluated once, when the layer's
// drawing starts), or read from each feature. Most properties are constants or functions of the
// zoom alone; asked by name for every feature, each was a dictionary look-up (its name hashed)
// and an evaluation of the same tree to the same value.
//
// An expression that reads nothing of the feature (`StyleExpression.readsFeature` false: no
// property, id, geometry type, state, `within`, `distance`, accumulated value or line progress)
// gives the same value for every feature at a zoom, so evaluating it once changes no pixel.
import TerrapinTiles

struct LayerProperties {
    /// The properties `drawFeatures` reads per feature.
    enum Name: Int, CaseIterable {
        case lineWidth, lineGapWidth, lineOffset, linePattern, lineColor, lineOpacity, lineCap, lineJoin, lineMiterLimit, lineDasharray, lineBlur
        case fillColor, fillOpacity, fillPattern, fillAntialias, fillOutlineColor
        case extrusionColor, extrusionOpacity, extrusionBase, extrusionPattern

        var key: String {
            switch self {
            case .lineWidth: "line-width"
            case .lineGapWidth: "line-gap-width"
            case .lineOffset: "line-offset"
            case .linePattern: "line-pattern"
            case .lineColor: "line-color"
            case .lineOpacity: "line-opacity"
            case .lineCap: "line-cap"
            case .lineJoin: "line-join"
            case .lineMiterLimit: "line-miter-limit"
            case .lineDasharray: "line-dasharray"
            case .lineBlur: "line-blur"
            case .fillColor: "fill-color"
            case .fillOpacity: "fill-opacity"
            case .fillPattern: "fill-pattern"
            case .fillAntialias: "fill-antialias"
            case .fillOutlineColor: "fill-outline-color"
            case .extrusionColor: "fill-extrusion-color"
            case .extrusionOpacity: "fill-extrusion-opacity"
            case .extrusionBase: "fill-extrusion-base"
            case .extrusionPattern: "fill-extrusion-pattern"
            }
        }
    }

    enum Slot {
        case absent
        case constant(StyleValue)
        case perFeature(StyleExpression)
    }

    private let slots: [Slot]

    /// `layer`'s properties at `context`'s zoom (`context` has no feature: what the constant
    /// ones are evaluated in).
    init(_ layer: BasemapStyle.Layer, _ context: EvaluationContext) {
        slots = Name.allCases.map { name in
            guard let e = layer.property(name.key) else { return .absent }
            return e.readsFeature ? .perFeature(e) : .constant(e.evaluate(context))
        }
    }

    /// What `name` was found to be.
    func slot(_ name: Name) -> Slot { slots[name.rawValue] }

    /// Whether the layer sets `name`.
    func has(_ name: Name) -> Bool {
        if case .absent = slots[name.rawValue] { false } else { true }
    }

    /// `name`'s value for the feature of `c`, or nil where the layer does not set it.
    @inline(__always)
    func value(_ name: Name, _ c: EvaluationContext) -> StyleValue? {
        switch slots[name.rawValue] {
        case .absent: nil
        case .constant(let v): v
        case .perFeature(let e): e.evaluate(c)
        }
    }

    /// As `Basemap.number`: a finite number, else `d`.
    func number(_ name: Name, _ c: EvaluationContext, default d: Double) -> Double {
        guard let n = value(name, c)?.number, n.isFinite else { return d }
        return n
    }

    /// As `Basemap.color`.
    func color(_ name: Name, _ c: EvaluationContext, default d: StyleColor) -> StyleColor {
        value(name, c)?.color ?? d
    }
}
