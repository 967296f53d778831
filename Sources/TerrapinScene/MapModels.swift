// 3D models, as in the Maps 3D SDK: `Model(position:url:altitudeMode:zIndex:scale:orientation:)`,
// a glTF 2.0 / GLB file placed at a coordinate. TerrapinRender resolves it into the display
// list's 3D layer; TerrapinModels loads and draws it.
import Foundation
import TerrapinGeo
import TerrapinIO
import TerrapinModels

/// Models loaded once per process and shared while the file is unchanged (256 MiB at most).

public struct Model: MapContent, MapContentTappable {
    public var position: LatLngAltitude
    public var url: URL
    public var altitudeMode: AltitudeMode
    /// Kept as the SDK has it; models are ordered by depth, not by zIndex.
    public var zIndex: Int32
    /// Along the model's own axes (glTF's x, y, z). Default 1, 1, 1.
    public var scale: Vector3D
    public var orientation: Orientation3D
    public var tapAction: (() -> Void)?
    /// The loaded model, or why it could not be loaded (such a model is listed hidden, with
    /// the reason, and draws nothing; a scene file's model that cannot be loaded is an error);
    /// nil until the load stage (TerrapinLoad's `MapLoader`, or SceneBuilder) has read `url`.
    public var asset: Result<ModelAsset, ModelError>?

    /// A model to be read from `url` (a file URL of a `.glb` or `.gltf`) by the load stage,
    /// through the process-wide model cache, before the map is resolved.
    public init(position: LatLngAltitude, url: URL, altitudeMode: AltitudeMode = .clampToGround, zIndex: Int32 = 0,
                scale: Vector3D = .one, orientation: Orientation3D = Orientation3D()) {
        self.position = position
        self.url = url
        self.altitudeMode = altitudeMode
        self.zIndex = zIndex
        self.scale = scale
        self.orientation = orientation
        asset = nil
    }

    /// A model already loaded (`GLTF.load` or `GLTF.decode`).
    public init(position: LatLngAltitude, asset: ModelAsset, altitudeMode: AltitudeMode = .clampToGround, zIndex: Int32 = 0,
                scale: Vector3D = .one, orientation: Orientation3D = Orientation3D()) {
        self.position = position
        self.url = URL(fileURLWithPath: asset.name)
        self.altitudeMode = altitudeMode
        self.zIndex = zIndex
        self.scale = scale
        self.orientation = orientation
        self.asset = .success(asset)
    }

    /// The same model, naming `file` (as a scene wrote it) as its URL.
    package func with(url file: String) -> Model { var m = self; m.url = URL(fileURLWithPath: file); return m }

    public func onTap(_ action: @escaping () -> Void) -> Model { var m = self; m.tapAction = action; return m }
    public var items: [MapItem] { [.model(self)] }
}
