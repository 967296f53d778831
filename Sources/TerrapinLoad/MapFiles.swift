// What a `Map` built in Swift reads from files: a vector basemap's archive and style by path,
// and the models it names by URL (loaded here, before resolve, for maps that did not come from
// a scene file, which SceneBuilder loads).
import Foundation
import TerrapinBasemap
import TerrapinIO
import TerrapinNet
import TerrapinModels
import TerrapinScene
import TerrapinTiles

extension Map {
    /// The map with a vector basemap read from `tiles` (a `.pmtiles` or `.mbtiles` archive or an
    /// XYZ template) and drawn by the MapLibre style file `style` (nil: the built-in style of
    /// the mode).
    public func basemap(tiles: String, style: String? = nil) throws -> Map {
        let source: any TileSource
        do throws(LoadError) { source = try tileSource(tiles, files: .unrestricted) } catch { throw error }
        var parsed: BasemapStyle?
        if let style {
            parsed = try Self.loadStyle(style)
        }
        let made = basemap(MapBasemap(tiles: source, style: parsed, files: .unrestricted, open: { path in try tileSource(path, files: .unrestricted) }))
        // A style that cannot be drawn (an archive it names is missing) fails here, not as a
        // blank map later.
        if made.mode != .satellite {
            do { _ = try DrawnBasemap.for(made.basemap!, mode: made.mode, imagery: made.imagery) } catch let e as LoadError { throw e } catch {
                throw LoadError.basemap(String(describing: error))
            }
        }
        return made
    }

    /// A style file, or a built-in style by name (`BasemapStyle.builtinNames`; drawn for the
    /// tiles' schema by `DrawnBasemap`).
    static func loadStyle(_ file: String, files: FileAccess = .unrestricted) throws(LoadError) -> BasemapStyle {
        if let builtin = BasemapStyle.builtin(file) { return builtin }
        if NetworkAccess.isURL(file) {
            // A style on a server: its relative sources and sprite are on the same server.
            let response: HTTPClient.Response
            do throws(NetError) { response = try HTTPClient.shared.get(file, access: files.network, maxBytes: 16 * 1024 * 1024) } catch { throw LoadError.remote(error) }
            guard response.status == 200 else { throw LoadError.remote(.status(url: URLText.redacted(file), code: response.status, attempts: 1)) }
            let address = response.url.prefix { $0 != "?" && $0 != "#" }
            let folder = address.lastIndex(of: "/").map { String(address[..<$0]) } ?? String(address)
            do throws(BasemapError) {
                return try BasemapStyle.parse(response.body, file: URLText.redacted(file), directory: folder)
            } catch { throw LoadError.basemap(error.description) }
        }
        // Parsed once a process (`AssetCache`, by the file's identity and this path, which its
        // relative sources and sprite are read from): batch and serve render scene after scene
        // with one style, whose JSON took a large style (VersaTiles') 36 M instructions a render.
        var read = 0
        return try AssetCache.shared.value("style", file, variant: file, files: files, cost: { (_: BasemapStyle) in 8 * read }) { () throws(LoadError) -> BasemapStyle in
            let bytes: [UInt8]
            do throws(FileError) { bytes = try files.read(file, limit: 16 * 1024 * 1024) } catch { throw LoadError.styleFile(error) }
            read = bytes.count
            let directory = (file as NSString).deletingLastPathComponent
            do throws(BasemapError) { return try BasemapStyle.parse(bytes, file: file, directory: directory.isEmpty ? "." : directory) } catch {
                throw LoadError.basemap(error.description)
            }
        }
    }
}

extension Model {
    /// A model file through the cache, opened by `files` (confined beneath `--root` for scenes).
    public static func load(_ path: String, files: FileAccess) throws(ModelError) -> ModelAsset {
        try AssetCache.shared.value("model", path, files: files, cost: { (asset: ModelAsset) in asset.byteCount }) { () throws(ModelError) -> ModelAsset in try GLTF.load(path, files: files) }
    }
}

/// The load stage for maps built in Swift: every model named by URL and not yet loaded is
/// loaded (through `AssetCache.shared`); a model that cannot be is kept with its error, listed
/// hidden with the reason when resolved.
public enum MapLoader {
    public static func load(_ map: Map, files: FileAccess = .unrestricted) -> Map {
        guard map.items.contains(where: { if case .model(let m) = $0 { m.asset == nil } else { false } }) else { return map }
        var loaded = map
        loaded.items = map.items.map { item in
            guard case .model(var model) = item, model.asset == nil else { return item }
            model.asset = Result { () throws(ModelError) -> ModelAsset in try Model.load(model.url.path, files: files) }
            return .model(model)
        }
        return loaded
    }
}
