// Facts about this build of Terrapin. Not named `Terrapin`: a type named like its module shadows
// the module, and code that qualifies a name (`Terrapin.Polyline`, as iOS code writes
// `GoogleMaps3D.Polyline`) would then look inside the type and fail to compile.
public enum TerrapinInfo {
    /// The renderer's version; part of batch resume keys and the PNG `Software` text.
    public static let version = "0.1.0"
}
