// The load stage's first step: before anything is decoded, every file a scene names is opened
// once (so a missing, unreadable or confined one is reported with where the scene names it),
// the view images' decoded sizes are added up from their headers against the decode budget, and
// each font family it names is looked up.
import TerrapinBasemap
import TerrapinCodecs
import TerrapinIO
import TerrapinRaster
import TerrapinScene
import TerrapinTiles
import TerrapinTypography

/// Why a scene cannot be loaded, found before any of it is decoded.
public enum PreflightError: Error, Equatable, Sendable {
    /// A file the scene names cannot be opened: missing, not a regular file, or outside the
    /// directory the scene is confined to.
    case file(reference: FileReference, error: FileError)
    /// A font family the scene names cannot be found.
    case font(reference: FileReference, error: TypographyError)
    /// The machine has no fonts at all: not the scene's fault.
    case noFonts(TypographyError)
    /// The view images, by their headers, would decode to more than `Preflight.imageDecodeBudget`.
    case imagesOverBudget(String)
}

public enum Preflight {
    /// The most decoded image bytes (distinct files, 4 bytes a pixel) one render may hold: 512 MiB.
    public static let imageDecodeBudget = 512 * 1024 * 1024

    /// Checks what `scene` names through `builder`'s files (URLs are left to the load stage,
    /// whose errors name them).
    public static func check(_ scene: SceneFile, builder: SceneBuilder) throws(PreflightError) {
        let files = builder.files
        // Each image file's header read once: 5,000 markers may name one image.
        var imageBytes: [String: Int] = [:]
        for reference in scene.origin.references where (BasemapStyle.builtin(reference.file) == nil || !reference.path.hasSuffix(".style"))
            && !NetworkAccess.isURL(reference.file) {
            let full = builder.path(reference.file)
            do throws(FileError) {
                if full.contains("{z}") { _ = try files.openDirectory(XYZTiles.folder(of: full)) } else {
                    let file = try files.open(full)
                    if reference.path.hasSuffix(".image.file"), imageBytes[file.identity] == nil { imageBytes[file.identity] = decodedImageBytes(file) }
                }
            } catch {
                throw .file(reference: reference, error: error)
            }
        }
        let decoded = imageBytes.values.reduce(0, +)
        if decoded > imageDecodeBudget {
            throw .imagesOverBudget("its \(imageBytes.count) images would decode to \(decoded / (1024 * 1024)) MiB, more than the "
                + "\(imageDecodeBudget / (1024 * 1024)) MiB one render may hold; use fewer or smaller images")
        }
        for font in scene.origin.fonts {
            do throws(TypographyError) { _ = try FontLibrary.shared.face(for: FontRequest(family: font.file)) } catch {
                if error == .noFonts { throw .noFonts(error) }
                throw .font(reference: font, error: error)
            }
        }
    }

    /// Width × height × 4 from a PNG's, JPEG's or WebP's header (0 when it is none of them, or
    /// beyond the image limits: decoding reports those more precisely).
    static func decodedImageBytes(_ file: OpenFile) -> Int {
        guard let head = try? RandomAccessFile(file).read(offset: 0, count: min(file.size, RasterImage.declaredSizeHead)),
              let (width, height) = RasterImage.declaredSize(head),
              Pixmap.Limits.allows(width: width, height: height) else { return 0 }
        return width * height * 4
    }
}
