// The display list as text: what `terrapin inspect` prints and the text goldens hold.
import TerrapinGeo
import TerrapinGeometry
import TerrapinModels
import TerrapinRaster
import TerrapinScene
import TerrapinTypography
import TerrapinViews

extension ResolvedScene {
    /// The display list as text, one line per item under its layer (numbers in points and
    /// metres, to 0.1): what `terrapin inspect` prints after the resolved markers.
    public var displayList: String {
        func f(_ v: Double) -> String { format1(v) }
        func rect(_ r: Rect) -> String { "\(f(r.minX)),\(f(r.minY)) \(f(r.width))x\(f(r.height))" }
        func hex(_ c: RGBAColor) -> String {
            let c8 = c.rgba8
            return "#" + [c8.red, c8.green, c8.blue].map { String($0, radix: 16, uppercase: true).count == 1 ? "0" + String($0, radix: 16, uppercase: true) : String($0, radix: 16, uppercase: true) }.joined()
        }
        var lines = ["display list:"]
        for layer in DisplayLayer.allCases {
            let inLayer = items.filter { $0.layer == layer }
            guard !inLayer.isEmpty else { continue }
            lines.append("  \(layer.rawValue):")
            for item in inLayer {
                var text: String
                switch item.content {
                case .sky(let c): text = "sky \(hex(c.horizon)) to \(hex(c.zenith))" + (c.haze ? "" : ", no haze")
                case .flatGround(let c, let drape): text = "flat ground \(hex(c))" + (drape.map { ", \($0)" } ?? "")
                case .terrainMesh(let columns, let rows, let finer, let drape, let roadmap):
                    text = "terrain mesh \(columns)x\(rows)" + finer.map { " > \($0.x)x\($0.y)" }.joined()
                        + ", \(roadmap ? "roadmap" : "relief") colours" + (drape.map { ", \($0)" } ?? "")
                case .buildings(let count): text = "buildings: \(count)"
                case .model(let k): text = "model \(models[k].index) \"\(models[k].name)\": \(models[k].triangles) triangles"
                case .leader(let marker, let from, let to): text = "leader of marker \(marker) from \(f(from.x)),\(f(from.y)) to \(f(to.x)),\(f(to.y))"
                case .marker(let i): text = "marker \(i) \"\(markers[i].label)\""
                case .markerLabel(let i): text = "label of marker \(i)"
                case .basemapLabel(let i): text = "label \(i) \"\(labels[i].name.replacing("\u{FFFC}", with: "[image]"))\""
                case .basemapIcon(let i): text = "icon of label \(i)"
                case .basemapLayers(let r): text = "basemap layers \(r.lowerBound)…\(r.upperBound - 1) over the labels below"
                case .basemapCircles(let n): text = "basemap circles facing the viewer ×\(n)"
                case .popover(_, let marker): text = "popover on marker \(marker)"
                case .attribution(let credit): text = "attribution \"\(credit)\""
                case .placeCard(let id):
                    let card = placeCard!.card
                    text = "place card \(id) \"\(card.name)\"" + (card.kind.map { " (\($0))" } ?? "") + ", close button \(rect(placeCard!.close))"
                case .control(let k):
                    let c = controls[k]
                    text = "\(c.kind.name) control at \(c.position.rawValue): " + c.buttons.map { "\($0.glyph.rawValue) \(rect($0.frame))" }.joined(separator: ", ")
                        + (c.kind == .compass ? ", needle turned \(f(-c.heading))°" : "")
                case .shape(let k):
                    let shape = shapes[k]
                    let points = shape.geo.reduce(0) { $0 + $1.count }
                    text = "\(shape.kind.rawValue) \(shape.index): \(points) points, \(shape.runs.count) \(shape.kind == .polygon ? "rings" : "runs")"
                        + (shape.hiddenRuns.isEmpty ? "" : ", \(shape.hiddenRuns.count) hidden")
                        + (shape.walls.isEmpty ? "" : ", \(shape.walls.count) walls")
                        + (shape.style.pattern == .solid ? "" : ", \(shape.style.pattern.rawValue)")
                }
                if let h = item.hidden { text += item.isDrawn ? " (\(h), drawn)" : ": hidden (\(h))" }
                if let b = item.box, !(item.content.isLeader) { text += ", box \(rect(b))" }
                if let d = item.depth { text += ", depth \(f(d))" }
                if item.opacity != 1 { text += ", opacity \(f(item.opacity * 100) )%" }
                switch item.hit {
                case .content(_, let scale)?: text += scale == 1 ? ", taps: content shape" : ", taps: content shape at scale \(f(scale))"
                case .bubble?: text += ", taps: bubble"
                case .stroke(let halfWidth)?: text += ", taps: within \(f(halfWidth)) of the line"
                case .fill?: text += ", taps: fill"
                case .place(_, let id)?: text += ", taps: place \(id)"
                case .model?: text += ", taps: its triangles"
                case .buttons?: text += ", taps: its buttons"
                case .card?: text += ", taps: its close button"
                case nil: break
                }
                lines.append("    " + text)
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension DisplayContent {
    var isLeader: Bool { if case .leader = self { return true } else { return false } }
}
