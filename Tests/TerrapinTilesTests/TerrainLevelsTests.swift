import Testing
import TerrapinGeo
@testable import TerrapinTerrain
@testable import TerrapinTerrainData
import TerrapinTiles

/// Terrain from elevation tiles with finer zooms nested near the camera (`TileTerrain.ground`).
@Suite struct TerrainLevelsTests {
    /// The Andorra example's camera: 18 km out, tilted 62° towards the north-north-east.
    static let camera = Camera(center: LatLngAltitude(latitude: 42.535, longitude: 1.58, altitude: 1500), heading: 30, tilt: 62, range: 18_000)

    /// Andorra's tiles (z8–12) at 1024² samples a level: z11 over the whole area, z12 over the
    /// ground the camera sees within 38 km (where z11's 56 m cells would span more than 2√2
    /// pixels of a 1024-point-high view), its lattice halving z11's over whole mesh blocks.
    @Test func levelsNestAlongTheCoarserLattice() throws {
        let source = try TileSources.open(fixtures + "andorra-terrainrgb-z8-12.pmtiles")
        let (ground, zooms) = try TileTerrain.ground(source, encoding: .terrainrgb, camera: Self.camera)
        #expect(zooms == [11, 12])
        let coarse = ground.grid, fine = try #require(ground.detail.first)
        #expect(coarse.columns * coarse.rows <= TileTerrain.defaultLevelSamples && fine.columns * fine.rows <= TileTerrain.defaultLevelSamples)
        #expect(fine.cellWidth == coarse.cellWidth / 2 && fine.cellHeight == coarse.cellHeight / 2)
        // The window's corner is a block corner of the coarser lattice.
        let w = ground.windows[0], s = TerrainMesh.blockCells(columns: coarse.columns, rows: coarse.rows)
        #expect(abs(fine.westCentre - (coarse.westCentre + Double(w.x0 * s) * coarse.cellWidth)) < 1e-12)
        #expect(abs(fine.northCentre - (coarse.northCentre - Double(w.y0 * s) * coarse.cellHeight)) < 1e-12)
        #expect(fine.columns == (min(w.x1 * s, coarse.columns - 1) - w.x0 * s) * 2 + 1)
        // Its edge is the coarser surface; inside, the finer tiles.
        #expect(ground.seamMismatch[1] < 1e-3)
        // The ground nearest the eye (the bottom middle of the view) is in the finer window;
        // the far corner of the area is not.
        let projection = Projection(camera: Self.camera, width: 1024, height: 1024, centerAltitude: ground.altitude(of: Self.camera.center, mode: .absolute))
        let (eye, down) = projection.ray(x: 512, y: 1024)
        let t = (eye.z - 1000) / -down.z  // about where it meets the valley floor
        let near = projection.frame.geodetic(enu: eye + down * t)
        #expect(near.latitude > fine.southCentre && near.latitude < fine.northCentre && near.longitude > fine.westCentre && near.longitude < fine.eastCentre)
        #expect(coarse.eastCentre > fine.eastCentre + 0.1)
    }

    /// Heights for altitude modes come from the finest level holding the point (the one the
    /// mesh draws there): against the SRTM `.hgt` the tiles were made from (bilinear in
    /// N42E001.hgt), within 25 m at z12 and coarser outside the window.
    @Test func heightsComeFromTheFinestLevel() throws {
        let source = try TileSources.open(fixtures + "andorra-terrainrgb-z8-12.pmtiles")
        let ground = try TileTerrain.ground(source, encoding: .terrainrgb, camera: Self.camera).ground
        let z12 = try TileTerrain.grid(source, encoding: .terrainrgb).grid
        let fine = ground.detail[0]
        for (lat, lon, hgt) in [(42.5063, 1.5218, 1017.4), (42.5839, 1.5736, 2547.9), (42.5347, 1.5806, 1255.5)] {
            let h = ground.elevation(at: LatLngAltitude(latitude: lat, longitude: lon))
            #expect(h == fine.height(latitude: lat, longitude: lon), "\(lat), \(lon) is in the z12 window")
            #expect(abs(h - hgt) < 25, "\(lat), \(lon): \(h) m, SRTM \(hgt) m")
            #expect(abs(h - z12.height(latitude: lat, longitude: lon)!) < 12, "the same tiles as one z12 grid")
        }
        // Coma Pedrosa's shoulder lies west of the window: the z11 grid answers there.
        let west = (latitude: 42.5918, longitude: 1.4442)
        #expect(west.longitude < fine.westCentre)
        #expect(ground.elevation(at: LatLngAltitude(latitude: west.latitude, longitude: west.longitude)) == ground.grid.height(latitude: west.latitude, longitude: west.longitude))
    }

    /// Each level holds at most its budget (the window shrinks towards the nearest ground);
    /// without a camera the ground is one grid of `grid(…)`'s default size.
    @Test func budgetsAndNoCamera() throws {
        let source = try TileSources.open(fixtures + "andorra-terrainrgb-z8-12.pmtiles")
        let (small, zooms) = try TileTerrain.ground(source, encoding: .terrainrgb, camera: Self.camera, levelSamples: 200_000)
        #expect(zooms.count >= 2 && zooms == Array(zooms[0]...zooms[zooms.count - 1]))
        for g in small.levels { #expect(g.columns * g.rows <= 200_000) }
        let (single, zoom) = try TileTerrain.ground(source, encoding: .terrainrgb, camera: nil)
        #expect(zoom == [12] && single.detail.isEmpty)
        // Seen from straight above at 3 km, z12 is fine enough everywhere but needed near.
        let above = Camera(center: LatLngAltitude(latitude: 42.55, longitude: 1.55, altitude: 2000), range: 3_000)
        let top = try TileTerrain.ground(source, encoding: .terrainrgb, area: [1.5, 42.5, 1.6, 42.6], camera: above)
        #expect(top.zooms.last == 12)
    }
}

extension TerrainLevelsTests {
    /// From 60 km (looking north-north-east at Andorra from beyond its southern edge), z12 is
    /// needed only near the eye: a small window in the z11 grid. With
    /// levels of 200,000 samples every zoom from z9 to z12 is nested towards the eye, each level
    /// inside the one before and smaller than its budget.
    @Test func aWideViewNestsEveryZoomTowardsTheEye() throws {
        let source = try TileSources.open(fixtures + "andorra-terrainrgb-z8-12.pmtiles")
        let far = Camera(center: LatLngAltitude(latitude: 42.82, longitude: 1.56, altitude: 1500), heading: 20, tilt: 70, range: 60_000)
        let (wide, wideZooms) = try TileTerrain.ground(source, encoding: .terrainrgb, camera: far)
        #expect(wideZooms == [11, 12])
        #expect(wide.detail.count == 1 && wide.detail[0].columns * wide.detail[0].rows < 100_000, "z12 only near the eye")
        // From further south the near ground lies beyond the archive's z12 tiles: no level of
        // magnified z11 tiles is made.
        let south = Camera(center: LatLngAltitude(latitude: 42.56, longitude: 1.56, altitude: 1500), heading: 20, tilt: 70, range: 60_000)
        #expect(try TileTerrain.ground(source, encoding: .terrainrgb, camera: south).zooms == [11])
        let (ground, zooms) = try TileTerrain.ground(source, encoding: .terrainrgb, camera: far, levelSamples: 200_000)
        #expect(zooms == [9, 10, 11, 12])
        for (outer, inner) in zip(ground.levels, ground.levels.dropFirst()) {
            #expect(inner.westCentre >= outer.westCentre && inner.eastCentre <= outer.eastCentre)
            #expect(inner.southCentre >= outer.southCentre - 1e-9 && inner.northCentre <= outer.northCentre + 1e-9)
            #expect(inner.columns * inner.rows <= 200_000)
        }
    }
}
