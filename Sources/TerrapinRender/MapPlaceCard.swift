// The card of a tapped basemap place (the SDK 1.0's Places widget, offline): a sheet at the
// map's foot with the place's name and kind, and a close button. Resolve lays it out; the
// painter draws it above the controls; a tap on its close button closes it.
import Foundation
import TerrapinGeometry
import TerrapinRaster
import TerrapinScene
import TerrapinTypography

/// The open place card, placed.
public struct ResolvedPlaceCard {
    public let card: PlaceCard
    /// The sheet, in points from the map's top-left.
    public let frame: Rect
    /// The close button's circle's box.
    public let close: Rect
    let name: TextLayout
    let kind: TextLayout?

    static let nameFont = FontSpec.system(size: 17, weight: .semibold)
    static let kindFont = FontSpec.system(size: 13)
    static let secondary = RGBAColor(RGBA8(hex: "#5F6368")!)

    /// The card for a `width` × `height` map: at most 400 pt wide, 8 pt from the sides and the
    /// foot, its name on one line (cut with an ellipsis) above its kind.
    static func place(_ card: PlaceCard, width: Double, height: Double) -> ResolvedPlaceCard? {
        let w = min(400, width - 16)
        guard w > 60 else { return nil }
        var options = TextLayoutOptions()
        options.maxWidth = w - 16 - 44
        options.lineLimit = 1
        guard let name = try? TextLayout.make(card.name, font: nameFont, options: options) else { return nil }
        let kind = card.kind.flatMap { try? TextLayout.make(Self.words($0), font: kindFont, options: options) }
        let h = 16 + name.height + (kind.map { 4 + $0.height } ?? 0) + 16
        let frame = Rect(x: (width - w) / 2, y: height - 8 - h, width: w, height: h)
        return ResolvedPlaceCard(card: card, frame: frame, close: Rect(x: frame.maxX - 12 - 28, y: frame.minY + 12, width: 28, height: 28),
                                 name: name, kind: kind)
    }

    /// A tile's word for a kind as a reader would say it: "fast_food" → "Fast food".
    static func words(_ kind: String) -> String {
        let spaced = kind.replacingOccurrences(of: "_", with: " ")
        return spaced.prefix(1).uppercased() + spaced.dropFirst()
    }
}

extension MapPainter {
    static func drawPlaceCard(_ card: ResolvedPlaceCard, canvas: Canvas) {
        let f = card.frame
        let sheet = PathBuilder.roundedRect(f, cornerRadius: 16)
        canvas.drawShadow(of: sheet, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.3), radius: 6, offset: Point(0, 2))
        canvas.fill(sheet, paint: Paint(color: .white))
        card.name.draw(in: canvas, at: Point(f.minX + 16, f.minY + 16), color: RGBAColor(RGBA8(hex: "#202124")!))
        card.kind?.draw(in: canvas, at: Point(f.minX + 16, f.minY + 20 + card.name.height), color: ResolvedPlaceCard.secondary)
        // The close button: a light grey circle with a cross.
        let c = card.close
        canvas.fill(PathBuilder.circle(center: Point(c.midX, c.midY), radius: c.width / 2), paint: Paint(color: RGBAColor(RGBA8(hex: "#F1F3F4")!)))
        var cross = PathBuilder()
        cross.move(to: Point(c.midX - 5, c.midY - 5)); cross.line(to: Point(c.midX + 5, c.midY + 5))
        cross.move(to: Point(c.midX + 5, c.midY - 5)); cross.line(to: Point(c.midX - 5, c.midY + 5))
        canvas.stroke(cross.build(), style: StrokeStyle(width: 2, cap: .round), paint: Paint(color: ResolvedPlaceCard.secondary))
    }
}
