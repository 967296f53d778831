// swift-tools-version:6.0
// Terrapin: a CPU renderer for 3D map scenes with SwiftUI-style markers.
// This file is the only place that states module dependencies (see docs/architecture.md, "Modules").
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Terrapin",
    products: [
        .library(name: "Terrapin", targets: ["Terrapin"]),
        .library(name: "TerrapinSnapshotTesting", targets: ["TerrapinSnapshotTesting"]),
        .library(name: "GoogleMaps3DKit", targets: ["GoogleMaps3DKit"]),
        .executable(name: "terrapin", targets: ["terrapin"]),
    ],
    targets: [
        // Loads libcurl, PROJ, librsvg and libmicrohttpd when first needed, for their shims.
        .target(name: "CTerrapinLibrary"),
        // C: libpng through pkg-config, and the one C file that owns libpng's setjmp.
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev", "zlib1g-dev"])]
        ),
        .target(
            name: "CTerrapinPNG",
            dependencies: ["CLibPNG"],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]
        ),

        // C: libjpeg-turbo, and the one C file that owns its setjmp; libwebp, zlib and SQLite
        // report errors as values and are called from Swift directly.
        .systemLibrary(name: "CLibJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .target(name: "CTerrapinJPEG", dependencies: ["CLibJPEG"], linkerSettings: [.linkedLibrary("jpeg")]),
        .systemLibrary(name: "CLibWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libdeflate: the PNG encoder's deflate, a whole buffer per call (errors are values).
        .systemLibrary(name: "CLibDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // SQLite's progress handler (a callback) as a work budget for hostile archives.
        .target(name: "CTerrapinSQLite", dependencies: ["CSQLite"], linkerSettings: [.linkedLibrary("sqlite3")]),
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlidec", providers: [.apt(["libbrotli-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // libtiff reports errors through handler callbacks: one C file installs them.
        .systemLibrary(name: "CLibTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        // PROJ (reprojecting GeoTIFF DEMs in other CRSs): errors are values, so no C file.
        // PROJ's header only (on the default include path, so no pkg-config): CTerrapinPROJ
        // loads the library when a scene first needs it.
        .systemLibrary(name: "CLibPROJ", providers: [.apt(["libproj-dev"])]),
        .target(name: "CTerrapinPROJ", dependencies: ["CLibPROJ", "CTerrapinLibrary"]),
        .target(name: "CTerrapinTIFF", dependencies: ["CLibTIFF"], linkerSettings: [.linkedLibrary("tiff")]),

        // librsvg (SVG icons) draws through cairo and reports GErrors: one C file owns both.
        // librsvg (Debian's librsvg2-dev) has no system-library target: CTerrapinSVG loads it when
        // the first SVG is opened, with its few declarations in rsvg_declarations.h (checked
        // against librsvg's and cairo's own headers by SVGDeclarationTests), since a target over
        // its headers would link it, and with it cairo, GLib and some twenty libraries, into
        // every process.
        .target(name: "CTerrapinSVG", dependencies: ["CTerrapinLibrary"]),

        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),

        // C: GNU libmicrohttpd, and the one C file that owns its callbacks (terrapin serve).
        // libmicrohttpd's header only (on the default include path, so no pkg-config): CTerrapinHTTP
        // loads the library when a server starts.
        .systemLibrary(name: "CLibMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "CTerrapinHTTP", dependencies: ["CLibMicroHTTPD", "CTerrapinLibrary"]),

        // C: libcurl, and the one C file that owns its callbacks (remote sources).
        // libcurl's headers only (on the default include path, so no pkg-config): CTerrapinCurl
        // loads the library on the first request instead of linking it (its comment says why).
        .systemLibrary(name: "CLibCurl", providers: [.apt(["libcurl4-gnutls-dev"])]),
        .target(name: "CTerrapinCurl", dependencies: ["CLibCurl", "CTerrapinLibrary"]),

        // C: openat2, a system call Swift cannot make (see TerrapinIO's FileAccess).
        .target(name: "CTerrapinIO"),

        // Swift modules, in the order data flows.
        .target(name: "TerrapinIO", dependencies: ["CTerrapinIO"]),
        .target(name: "TerrapinGeometry"),
        // Software prefetch (a compiler builtin Swift cannot call) for the compositors.
        .target(name: "CTerrapinPrefetch"),
        .target(name: "TerrapinRaster", dependencies: ["TerrapinGeometry", "TerrapinIO", "CTerrapinPrefetch"]),
        .target(name: "TerrapinPNG", dependencies: ["TerrapinRaster", "TerrapinIO", "CTerrapinPNG", "CZlib", "CLibDeflate"]),
        .target(name: "TerrapinCodecs", dependencies: ["TerrapinRaster", "TerrapinIO", "TerrapinPNG", "CTerrapinJPEG", "CLibWebP", "CBrotli", "CZstd", "CTerrapinSVG"]),
        // Remote sources: HTTP(S) through libcurl, the download cache, the host allow-list.
        .target(name: "TerrapinNet", dependencies: ["TerrapinIO", "CTerrapinCurl"]),
        .target(name: "TerrapinTiles", dependencies: ["TerrapinCodecs", "TerrapinIO", "TerrapinNet", "TerrapinGeo", "CSQLite", "CTerrapinSQLite"]),
        .target(
            name: "TerrapinTypography",
            dependencies: ["TerrapinRaster", "TerrapinGeometry", "TerrapinIO", "CFreeType", "CHarfBuzz", "CFontconfig", "CFriBidi"]
        ),
        .target(name: "TerrapinGeo", dependencies: ["TerrapinGeometry"]),
        // Height data: grids and their loaders, elevation tiles, GeoTIFF (libtiff), PROJ.
        .target(name: "TerrapinTerrainData", dependencies: ["TerrapinGeo", "TerrapinGeometry", "TerrapinRaster", "TerrapinPNG", "TerrapinCodecs", "TerrapinTiles", "TerrapinIO", "CTerrapinTIFF", "CTerrapinPROJ"]),
        // Imagery: images with bounds, raster tile archives and drawers, GeoTIFF imagery.
        .target(name: "TerrapinImagery", dependencies: ["TerrapinTerrainData", "Terrapin3D", "TerrapinGeo", "TerrapinRaster", "TerrapinPNG", "TerrapinCodecs", "TerrapinTiles", "TerrapinIO"]),
        // 3D drawing shared by terrain, buildings, basemap extrusions and models: the depth frame.
        .target(name: "Terrapin3D", dependencies: ["TerrapinGeo", "TerrapinGeometry", "TerrapinRaster", "TerrapinIO"]),
        // The ground drawn in 3D: grounds, the terrain mesh, buildings, the ground pass.
        .target(name: "TerrapinTerrain", dependencies: ["TerrapinTerrainData", "TerrapinImagery", "Terrapin3D", "TerrapinGeo", "TerrapinGeometry", "TerrapinRaster", "TerrapinTiles", "TerrapinIO"]),
        .target(name: "TerrapinModels", dependencies: ["TerrapinIO", "TerrapinCodecs", "TerrapinPNG", "TerrapinRaster", "TerrapinGeo", "Terrapin3D"]),
        .target(name: "TerrapinBasemap", dependencies: ["TerrapinIO", "TerrapinNet", "TerrapinTiles", "TerrapinCodecs", "TerrapinGeo", "TerrapinGeometry", "TerrapinRaster", "TerrapinTerrainData", "TerrapinImagery", "Terrapin3D", "TerrapinPNG"]),
        .target(name: "TerrapinViews", dependencies: ["TerrapinTypography", "TerrapinPNG", "TerrapinCodecs", "TerrapinRaster", "TerrapinGeometry", "TerrapinIO"]),
        .target(name: "TerrapinScene", dependencies: ["TerrapinIO", "TerrapinGeometry", "TerrapinTiles", "TerrapinBasemap", "TerrapinRaster", "TerrapinTypography", "TerrapinViews", "TerrapinGeo", "TerrapinTerrain", "TerrapinModels", "Terrapin3D", "TerrapinImagery", "TerrapinTerrainData"]),
        // The load stage: every file a scene or a Swift-built map names, read once through AssetCache.
        .target(name: "TerrapinLoad", dependencies: ["TerrapinScene", "TerrapinIO", "TerrapinCodecs", "TerrapinNet", "TerrapinTiles", "TerrapinBasemap", "TerrapinRaster", "TerrapinTypography", "TerrapinViews", "TerrapinGeo", "TerrapinTerrain", "TerrapinModels", "Terrapin3D", "TerrapinImagery", "TerrapinTerrainData"]),
        .target(name: "TerrapinRender", dependencies: ["TerrapinIO", "TerrapinNet", "TerrapinScene", "TerrapinLoad", "TerrapinModels", "TerrapinPNG", "TerrapinCodecs", "TerrapinViews", "TerrapinGeo", "TerrapinGeometry", "TerrapinRaster", "TerrapinTerrain", "TerrapinTypography", "TerrapinBasemap", "TerrapinTiles", "TerrapinImagery"]),
        .target(name: "TerrapinDiff", dependencies: ["TerrapinRaster", "TerrapinGeometry"]),
        .target(
            name: "Terrapin",
            dependencies: ["TerrapinMacros", "TerrapinIO", "TerrapinNet", "TerrapinGeometry", "TerrapinRaster", "TerrapinPNG", "TerrapinCodecs", "TerrapinTiles", "TerrapinBasemap", "TerrapinTypography", "TerrapinViews", "TerrapinGeo", "TerrapinTerrainData", "TerrapinImagery", "Terrapin3D", "TerrapinTerrain", "TerrapinModels", "TerrapinScene", "TerrapinLoad", "TerrapinRender"]
        ),
        // `#Preview`'s compiler plugin (a host executable speaking the plugin protocol).
        .macro(name: "TerrapinMacros"),
        // What the test targets share: where Fixtures/ and Examples/ are, golden PNGs by name.
        .target(name: "TerrapinTestSupport", dependencies: ["TerrapinSnapshotCore", "TerrapinRaster", "TerrapinGeometry", "TerrapinIO"]),
        // Writers for the files tests and hostile cases are made of (vector tiles, PMTiles, a
        // sparse GeoTIFF), below the map, so that the tiles' tests need not wait for it.
        .target(name: "TerrapinTestData", dependencies: ["TerrapinTiles", "TerrapinPNG"]),
        // The snapshot framework with its image and text strategies and nothing of the map
        // (TerrapinSnapshotTesting adds scenes and views and re-exports it): the tests of the
        // modules below the map use it and build beside the modules above them.
        .target(name: "TerrapinSnapshotCore", dependencies: ["TerrapinRaster", "TerrapinPNG", "TerrapinDiff", "TerrapinIO"]),
        .target(name: "TerrapinSnapshotTesting", dependencies: ["TerrapinSnapshotCore", "Terrapin", "TerrapinDiff"]),
        // The SDK 1.0's second module name, re-exporting Terrapin.
        .target(name: "GoogleMaps3DKit", dependencies: ["Terrapin"]),
        .target(name: "TerrapinBatch", dependencies: ["Terrapin", "TerrapinIO"]),
        .target(name: "TerrapinServe", dependencies: ["Terrapin", "TerrapinBatch", "TerrapinIO", "TerrapinNet", "CTerrapinHTTP"]),
        .target(name: "TerrapinFuzzing", dependencies: ["Terrapin", "TerrapinServe", "TerrapinTestData"]),
        .executableTarget(name: "terrapin", dependencies: ["Terrapin", "TerrapinDiff", "TerrapinBatch", "TerrapinServe", "TerrapinIO"]),
        .executableTarget(name: "TerrapinBench", dependencies: ["Terrapin", "TerrapinDiff", "TerrapinBatch", "TerrapinFuzzing"]),

        .testTarget(name: "TerrapinIOTests", dependencies: ["TerrapinIO", "CTerrapinIO"]),
        .testTarget(name: "TerrapinNetTests", dependencies: ["TerrapinNet", "TerrapinIO", "TerrapinPNG", "TerrapinTiles", "Terrapin", "TerrapinTestSupport"]),
        .testTarget(name: "TerrapinGeometryTests", dependencies: ["TerrapinGeometry"]),
        .testTarget(name: "TerrapinRasterTests", dependencies: ["TerrapinRaster", "TerrapinPNG", "TerrapinSnapshotCore", "TerrapinGeometry", "TerrapinTestSupport"]),
        .testTarget(name: "TerrapinPNGTests", dependencies: ["TerrapinPNG", "TerrapinRaster", "TerrapinIO", "TerrapinTestSupport"]),
        .testTarget(name: "TerrapinCodecsTests", dependencies: ["TerrapinCodecs", "TerrapinPNG", "TerrapinRaster", "TerrapinDiff", "TerrapinTestSupport"]),
        .testTarget(name: "TerrapinTilesTests", dependencies: ["TerrapinTiles", "TerrapinTestData", "TerrapinCodecs", "TerrapinTerrain", "TerrapinGeo", "TerrapinPNG", "TerrapinIO", "CSQLite", "TerrapinRaster", "TerrapinTestSupport", "TerrapinImagery", "TerrapinTerrainData"]),
        .testTarget(name: "TerrapinBasemapTests", dependencies: ["TerrapinBasemap", "TerrapinTiles", "TerrapinIO", "TerrapinPNG", "TerrapinSnapshotCore", "TerrapinRaster", "TerrapinGeometry", "TerrapinTerrain", "TerrapinGeo", "TerrapinTestSupport", "Terrapin3D", "TerrapinImagery", "TerrapinCodecs"]),
        .testTarget(name: "TerrapinSceneTests", dependencies: ["TerrapinScene", "TerrapinLoad", "TerrapinRender", "TerrapinRaster", "TerrapinViews", "TerrapinTerrain", "TerrapinGeo", "TerrapinIO", "TerrapinTestSupport", "Terrapin3D", "TerrapinBasemap"]),
        .testTarget(name: "TerrapinRenderTests", dependencies: ["Terrapin", "TerrapinSnapshotTesting", "TerrapinRender", "TerrapinTerrain", "TerrapinScene", "TerrapinDiff", "TerrapinTestSupport", "Terrapin3D", "TerrapinImagery", "TerrapinTerrainData", "TerrapinIO"]),
        .testTarget(name: "TerrapinTypographyTests", dependencies: ["TerrapinTypography", "TerrapinSnapshotCore", "TerrapinRaster", "TerrapinGeometry", "TerrapinTestSupport"]),
        .testTarget(name: "TerrapinModelsTests", dependencies: ["TerrapinModels", "TerrapinTerrain", "TerrapinGeo", "TerrapinIO", "TerrapinPNG", "TerrapinSnapshotCore", "TerrapinRaster", "TerrapinGeometry", "TerrapinDiff", "TerrapinTestSupport", "Terrapin3D"]),
        .testTarget(name: "TerrapinGeoTests", dependencies: ["TerrapinGeo"]),
        .testTarget(name: "TerrapinTerrainTests", dependencies: ["TerrapinTerrain", "TerrapinCodecs", "TerrapinIO", "TerrapinRaster", "TerrapinPNG", "TerrapinTiles", "TerrapinGeo", "TerrapinGeometry", "TerrapinTestSupport", "Terrapin3D", "TerrapinImagery", "TerrapinTerrainData"]),
        .testTarget(name: "TerrapinViewsTests", dependencies: ["TerrapinViews", "TerrapinSnapshotCore", "TerrapinRaster", "TerrapinGeometry", "TerrapinPNG", "TerrapinCodecs", "TerrapinTypography", "TerrapinIO", "TerrapinDiff", "TerrapinTestSupport"]),
        .testTarget(name: "TerrapinDiffTests", dependencies: ["TerrapinDiff", "TerrapinPNG", "TerrapinRaster", "TerrapinGeometry", "TerrapinTestSupport"]),
        .testTarget(name: "TerrapinSnapshotTestingTests", dependencies: ["TerrapinSnapshotTesting", "TerrapinSnapshotCore", "Terrapin", "TerrapinDiff"], exclude: ["__Snapshots__"]),
        // The demo app written as an iOS map app (Examples/SampleApp), rendered and tapped.
        .testTarget(name: "SampleAppTests", dependencies: ["Terrapin", "GoogleMaps3DKit", "TerrapinTestSupport"], path: "Examples/SampleApp", exclude: ["App"]),
        // Runs the `terrapin` binary, which every build builds, but does not depend on it: the
        // target compiles while the binary links (the build's lone tail 12 s → 3 s).
        .testTarget(name: "TerrapinCLITests", dependencies: ["Terrapin", "TerrapinPNG", "TerrapinFuzzing", "TerrapinTestData", "TerrapinBasemap", "TerrapinRaster", "TerrapinGeometry", "TerrapinTestSupport", "TerrapinNet", "TerrapinTerrainData", "TerrapinCodecs", "TerrapinServe"]),
        .testTarget(name: "TerrapinBatchTests", dependencies: ["TerrapinBatch"]),
        .testTarget(name: "TerrapinServeTests", dependencies: ["TerrapinServe", "Terrapin", "TerrapinFuzzing", "TerrapinTestSupport"]),
        .testTarget(name: "TerrapinFuzzingTests", dependencies: ["TerrapinFuzzing", "Terrapin", "TerrapinTestSupport", "TerrapinIO"]),
    ]
)

// libFuzzer targets for `make fuzz`, one per FuzzTarget. Each defines LLVMFuzzerTestOneInput and
// no `main` (libFuzzer brings it), so they exist only when `make fuzz` builds with
// TERRAPIN_FUZZ=1 and -sanitize=fuzzer.
if Context.environment["TERRAPIN_FUZZ"] != nil {
    // `#Preview`'s plugin is a host executable of its own: built with libFuzzer's flags it would
    // lose its `main`, and fuzzing needs no previews (the macro is declared, never expanded).
    package.targets.removeAll { $0.name == "TerrapinMacros" }
    if let umbrella = package.targets.first(where: { $0.name == "Terrapin" }) {
        umbrella.dependencies.removeAll { if case .byNameItem(name: "TerrapinMacros", _) = $0 { true } else { false } }
    }
    for name in ["scene", "png", "grid", "text", "geojson", "raster", "tiles", "geotiff", "mvt", "style", "sprite", "staticmap", "gltf", "svg", "mbtiles", "encoders", "net", "expression", "worker"] {
        package.targets.append(.executableTarget(name: "fuzz-\(name)", dependencies: ["TerrapinFuzzing"], path: "Fuzz/\(name)"))
    }
}

// `make` builds (TERRAPIN_OPTIMISE=1, in .build/opt) compile with -O the modules that draw and
// decode, where the tests spend their time, and leave unoptimised the test targets and the modules
// that only orchestrate (scene reading, loading, resolving and painting's decisions, the CLI,
// batch, serve, fuzzing and benchmark drivers): -O roughly doubles a file's compile time, and
// these do little work per test. The optimised modules are compiled whole (-wmo, LLVM on two
// threads; -disable-batch-mode overrides SwiftPM's batch mode, which -wmo would ignore with a
// warning): file by file, a generic function called from another file of its module (the depth
// rasteriser's `fragment<A: SIMD>` from the terrain renderer's) was left unspecialised, each call
// going through the runtime's metadata lookups — a third of the suite's time in libswiftCore.
// Measured on the 2-core machine, fresh scratch paths, same tree: file by file, a cold build took
// 3 min 46 s (6 min 50 s CPU) and the suite 61 s (96 s CPU); whole-module, 3 min 22 s (5 min 38 s
// CPU) and 45 s (66 s CPU). Every golden is the same bytes either way. `swift build` by hand
// stays unoptimised; `make bench` and the release builds optimise everything.
//
// The unoptimised modules and the test targets are compiled whole too, in one job that also
// writes the .swiftmodule (-no-emit-module-separately-wmo; -num-threads 1 keeps an object file
// per source, as the index store wants): by default the driver ran a separate emit-module job
// beside the batch jobs, type-checking every declaration of the module a second time, and for a
// test target, whose declarations are mostly the test macros' expansions, that was a seventh of
// its compile. TerrapinViews (layout and view painting) runs unoptimised: its tests' time barely
// moves (the suite +1 s of CPU) while its -O compile was the longest after TerrapinBasemap's.
// Fresh copies of the tree on the 2-core machine (`--build-tests`, compile jobs timed through a
// SWIFT_EXEC wrapper): 307 s of CPU and 166-170 s before the link → whole-module test and
// orchestration targets 287 s and 159 s → TerrapinViews unoptimised 254-268 s and 139-151 s; the
// suite 44 s → 45 s. TerrapinTypography and TerrapinModels unoptimised were tried too: the suite
// took 10 s longer, more than their compile saved.
if Context.environment["TERRAPIN_OPTIMISE"] != nil {
    let orchestration: Set<String> = ["TerrapinNet", "TerrapinScene", "TerrapinLoad", "TerrapinRender", "Terrapin", "TerrapinSnapshotTesting", "TerrapinSnapshotCore", "TerrapinTestData", "TerrapinTestSupport",
                                      "GoogleMaps3DKit", "TerrapinViews", "TerrapinBatch", "TerrapinServe", "TerrapinFuzzing", "terrapin", "TerrapinBench"]
    for target in package.targets where target.type == .regular || target.type == .executable || target.type == .test {
        let isC = target.name.hasPrefix("C") && target.name.dropFirst().first?.isUppercase == true
        if isC { continue }
        if target.type != .test, !orchestration.contains(target.name) {
            target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-O", "-wmo", "-num-threads", "2", "-disable-batch-mode"])]
        } else {
            target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-wmo", "-num-threads", "1", "-no-emit-module-separately-wmo", "-disable-batch-mode"])]
        }
    }
}
