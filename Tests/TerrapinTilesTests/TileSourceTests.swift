import CSQLite
import Dispatch
import Glibc
import Testing
import TerrapinCodecs
import TerrapinTestData
import TerrapinIO
import TerrapinPNG
import TerrapinRaster
@testable import TerrapinImagery
@testable import TerrapinTerrainData
@testable import TerrapinTiles
import TerrapinTestSupport

let fixtures = Repository.fixture("tiles") + "/"

/// A PMTiles v3 archive for these tests (`PMTilesWriter.tiles`): stored directories, tiles as
/// given; with `leafSize`, the root holds leaf pointers to directories of that many entries.
func pmtiles(_ tiles: [(TileID, [UInt8])], leafSize: Int? = nil, tileType: UInt8 = 2, metadata: String = "{}") -> [UInt8] {
    PMTilesWriter.tiles(tiles, leafSize: leafSize, tileType: tileType, metadata: metadata)
}

func write(_ bytes: [UInt8], _ name: String) throws -> String {
    let path = ProcessScratch.path(name)
    try FileIO.writeAtomically(bytes, to: path)
    return path
}

/// A one-colour 256² PNG tile.
func tile(_ r: UInt8, _ g: UInt8, _ b: UInt8, size: Int = 256) throws -> [UInt8] {
    var p = Pixmap(width: size, height: size)!
    p.fill(PremultipliedRGBA8(red: r, green: g, blue: b, alpha: 255))
    return try PNGEncoder.encode(p)
}

@Suite struct PMTilesTests {
    @Test func hilbertIdsMatchTheSpecAndRoundTrip() {
        // The spec's examples: 0/0/0 → 0, 1/0/0 → 1, 1/0/1 → 2, 1/1/1 → 3, 1/1/0 → 4, 2/0/0 → 5.
        #expect([TileID(z: 0, x: 0, y: 0), TileID(z: 1, x: 0, y: 0), TileID(z: 1, x: 0, y: 1), TileID(z: 1, x: 1, y: 1),
                 TileID(z: 1, x: 1, y: 0), TileID(z: 2, x: 0, y: 0)].map(PMTiles.tileID) == [0, 1, 2, 3, 4, 5])
        #expect(PMTiles.tileID(TileID(z: 12, x: 3423, y: 1763)) == 19_078_479)
        for z in 0...8 {
            for (x, y) in [(0, 0), ((1 << z) - 1, 0), (0, (1 << z) - 1), ((1 << z) / 3, (1 << z) * 2 / 3)] {
                let id = TileID(z: z, x: x, y: y)
                #expect(PMTiles.tile(forID: PMTiles.tileID(id)) == id)
            }
        }
    }

    @Test func readsTheRealArchives() throws {
        let dem = try PMTiles(fixtures + "andorra-terrainrgb-z8-12.pmtiles")
        #expect(dem.info.type == .png && dem.info.minZoom == 8 && dem.info.maxZoom == 12)
        #expect(dem.header.addressedTiles == 33 && dem.header.clustered)
        #expect(dem.info.attribution?.contains("SRTM") == true)
        let andorra = TileImagery.tileID(longitude: 1.52, latitude: 42.51, zoom: 12)
        #expect(andorra == TileID(z: 12, x: 2065, y: 1512))
        let png = try #require(try dem.tile(andorra))
        #expect(RasterFormat.sniff(png) == .png)
        #expect(try dem.tile(TileID(z: 12, x: 0, y: 0)) == nil)
        #expect(try dem.tile(TileID(z: 13, x: 4130, y: 3004)) == nil)
        let topo = try PMTiles(fixtures + "usgs-mt-whitney-topo-webp-z8-15.pmtiles")
        #expect(topo.info.type == .webp)
        let webp = try #require(try topo.tile(TileImagery.tileID(longitude: -118.292, latitude: 36.5786, zoom: 15)))
        #expect(try RasterImage.decode(webp).width == 512)
        // The world basemap stores 85 tiles in 80 contents: run lengths and shared offsets.
        let world = try PMTiles(fixtures + "stamen-toner-z0-3.pmtiles")
        #expect(world.header.addressedTiles == 85 && world.header.tileEntries == 84 && world.header.tileContents == 80)
        var found = 0
        for z in 0...3 { for x in 0..<(1 << z) { for y in 0..<(1 << z) where try world.tile(TileID(z: z, x: x, y: y)) != nil { found += 1 } } }
        #expect(found == 85)
    }

    @Test func leafDirectoriesAndRunLengths() throws {
        let red = try tile(255, 0, 0), blue = try tile(0, 0, 255)
        var tiles: [(TileID, [UInt8])] = [(TileID(z: 0, x: 0, y: 0), blue)]
        for x in 0..<4 { for y in 0..<4 { tiles.append((TileID(z: 2, x: x, y: y), y < 2 ? red : blue)) } }
        let path = try write(pmtiles(tiles, leafSize: 3), "leaves.pmtiles")
        let archive = try PMTiles(path)
        #expect(archive.root.allSatisfy { $0.runLength == 0 })
        for (id, bytes) in tiles { #expect(try archive.tile(id) == bytes, "\(id)") }
        #expect(try archive.tile(TileID(z: 1, x: 0, y: 0)) == nil)
        // Entries as decoded: the first leaf starts at tile 0, and runs merge equal neighbours.
        let flat = try PMTiles(try write(pmtiles(tiles), "flat.pmtiles"))
        #expect(flat.root.count < tiles.count)
        #expect(flat.root.contains { $0.runLength > 1 })
    }

    @Test func malformedArchivesAreTypedErrors() throws {
        let good = pmtiles([(TileID(z: 0, x: 0, y: 0), try tile(1, 2, 3))])
        var badMagic = good; badMagic[0] = 0x51
        var badVersion = good; badVersion[7] = 2
        var badRoot = good; badRoot[16] = 0xFF; badRoot[17] = 0xFF; badRoot[18] = 0x0F
        var badCompression = good; badCompression[98] = 9
        var zstd = good; zstd[97] = 4
        let cases: [(String, [UInt8], String)] = [
            ("magic", badMagic, "does not start with a PMTiles v3 header"),
            ("version", badVersion, "PMTiles version 2"),
            ("root", badRoot, "lies beyond the file's end"),
            ("compression", badCompression, "compression codes"),
            ("zstd", zstd, "damaged zstd stream"),
            ("short", Array(good.prefix(60)), "shorter than the 127-byte header"),
        ]
        for (name, bytes, expected) in cases {
            let path = try write(bytes, "bad-\(name).pmtiles")
            #expect { _ = try PMTiles(path) } throws: { "\($0)".contains(expected) }
        }
        // A directory claiming more entries than its bytes can hold.
        #expect(throws: TileError.self) { try PMTiles.parseDirectory([0xFF, 0xFF, 0x03, 1, 1, 1, 1]) }
        #expect(throws: TileError.self) { try PMTiles.parseDirectory([1, 0, 1, 1]) }  // length 1, offset "after previous" first
    }

    /// The world basemap with its directories and metadata re-compressed with brotli and with
    /// zstd (made with Python's brotli and zstandard): the same tiles come out.
    @Test func brotliAndZstdDirectories() throws {
        let gzip = try PMTiles(fixtures + "stamen-toner-z0-3.pmtiles")
        for name in ["brotli", "zstd"] {
            let other = try PMTiles(fixtures + "stamen-toner-z0-3-\(name).pmtiles")
            #expect(other.header.internalCompression == (name == "brotli" ? .brotli : .zstd))
            #expect(other.root == gzip.root && other.metadata == gzip.metadata)
            for id in [TileID(z: 0, x: 0, y: 0), TileID(z: 3, x: 4, y: 2), TileID(z: 2, x: 1, y: 3)] {
                #expect(try other.tile(id) == gzip.tile(id), "\(name) \(id)")
            }
        }
        // Damaged and oversized streams are typed errors.
        #expect(throws: CodecError.self) { try Inflate.brotli([1, 2, 3, 4, 5], limit: 1 << 20) }
        #expect(throws: CodecError.self) { try Inflate.zstd([0x28, 0xB5, 0x2F, 0xFD, 0, 0], limit: 1 << 20) }
    }

    @Test func aFIFOIsRefusedNotWaitedOn() throws {
        let path = ProcessScratch.path("fifo.pmtiles")
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect { _ = try TileSources.open(path) } throws: { "\($0)".contains("not a regular file") }
    }
}

@Suite struct MBTilesAndXYZTests {
    /// An MBTiles file with the given tiles (TMS rows) and metadata.
    func mbtiles(_ tiles: [(TileID, [UInt8])], metadata: [(String, String)]) throws -> String {
        let path = ProcessScratch.path("\(tiles.count).mbtiles")
        unlink(path)
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        sqlite3_exec(db, "CREATE TABLE metadata (name text, value text); CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);", nil, nil, nil)
        for (k, v) in metadata { sqlite3_exec(db, "INSERT INTO metadata VALUES ('\(k)', '\(v)')", nil, nil, nil) }
        var s: OpaquePointer?
        sqlite3_prepare_v2(db, "INSERT INTO tiles VALUES (?, ?, ?, ?)", -1, &s, nil)
        for (id, bytes) in tiles {
            sqlite3_reset(s)
            sqlite3_bind_int(s, 1, Int32(id.z)); sqlite3_bind_int(s, 2, Int32(id.x)); sqlite3_bind_int(s, 3, Int32((1 << id.z) - 1 - id.y))
            _ = bytes.withUnsafeBytes { sqlite3_bind_blob(s, 4, $0.baseAddress, Int32(bytes.count), nil) }
            sqlite3_step(s)
        }
        sqlite3_finalize(s)
        return path
    }

    @Test func tmsRowsAreFlippedAndMetadataRead() throws {
        let north = try tile(255, 0, 0), south = try tile(0, 0, 255)
        let path = try mbtiles([(TileID(z: 1, x: 0, y: 0), north), (TileID(z: 1, x: 0, y: 1), south)],
                               metadata: [("format", "png"), ("minzoom", "1"), ("maxzoom", "1"), ("bounds", "-180,-85,0,85"), ("attribution", "Test data")])
        let source = try TileSources.open(path)
        #expect(source.info == TileSourceInfo(type: .png, minZoom: 1, maxZoom: 1, bounds: [-180, -85, 0, 85], attribution: "Test data"))
        // XYZ y = 0 is the north: stored as TMS row 1.
        #expect(try source.tile(TileID(z: 1, x: 0, y: 0)) == north)
        #expect(try source.tile(TileID(z: 1, x: 0, y: 1)) == south)
        #expect(try source.tile(TileID(z: 1, x: 1, y: 0)) == nil)
    }

    /// Regression: `tiles` and `metadata` as views over a recursive CTE that never yields a row
    /// made `terrapin render` hang. Each statement now has a budget of SQLite steps; the archive
    /// is refused (metadata) or its reads fail, the first within the budget, the rest at once.
    @Test func viewsThatNeverEndAreStoppedNotWaitedOn() throws {
        func hostile(_ name: String, _ sql: String) throws -> String {
            let path = ProcessScratch.path("\(name).mbtiles")
            unlink(path)
            var db: OpaquePointer?
            #expect(sqlite3_open(path, &db) == SQLITE_OK)
            defer { sqlite3_close(db) }
            #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK)
            return path
        }
        let endless = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)"
        let tiles = try hostile("endless-tiles", "CREATE TABLE metadata (name text, value text); INSERT INTO metadata VALUES ('minzoom', '0'), ('maxzoom', '2'); "
                                + "CREATE VIEW tiles AS \(endless) SELECT 0 AS zoom_level, 0 AS tile_column, 0 AS tile_row, x AS tile_data FROM n WHERE x < 0;")
        defer { unlink(tiles) }
        #expect(MBTiles.maxStepsPerStatement == 100_000_000)
        let source = try MBTiles(tiles, stepsPerStatement: 1_000_000)   // the default's hundredth, to keep the test fast
        #expect { _ = try source.tile(TileID(z: 0, x: 0, y: 0)) } throws: { "\($0)".contains("took more than 1000000 SQLite steps") }
        #expect { _ = try source.tile(TileID(z: 1, x: 0, y: 0)) } throws: { "\($0)".contains("an earlier read took more than") }
        let metadata = try hostile("endless-metadata", "CREATE VIEW metadata AS \(endless) SELECT 'a' AS name, x AS value FROM n WHERE x < 0; "
                                   + "CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);")
        defer { unlink(metadata) }
        #expect { _ = try MBTiles(metadata, stepsPerStatement: 1_000_000) } throws: { "\($0)".contains("reading its metadata took more than") }
    }

    @Test func notADatabaseIsATypedError() throws {
        let path = try write(Array("not sqlite at all, just text".utf8), "junk.mbtiles")
        #expect(throws: TileError.self) { _ = try MBTiles(path) }
        #expect { _ = try MBTiles("/tmp/no-such-\(getpid()).mbtiles") } throws: { "\($0)".contains("no such file") }
    }

    @Test func xyzFoldersAndTMSTemplates() throws {
        let root = ProcessScratch.path("xyz")
        let red = try tile(255, 0, 0)
        try FileIO.makeDirectory(root + "/2/1")
        try FileIO.writeAtomically(red, to: root + "/2/1/3.png")
        let xyz = try TileSources.open(root + "/{z}/{x}/{y}.png")
        #expect(xyz.info.type == .png && xyz.info.minZoom == 2 && xyz.info.maxZoom == 2)
        #expect(try xyz.tile(TileID(z: 2, x: 1, y: 3)) == red)
        #expect(try xyz.tile(TileID(z: 2, x: 1, y: 0)) == nil)
        let tms = try TileSources.open(root + "/{z}/{x}/{-y}.png")
        #expect(try tms.tile(TileID(z: 2, x: 1, y: 0)) == red)
        #expect(throws: TileError.self) { _ = try TileSources.open("tiles.zip") }
    }
}

@Suite struct TiledImageryTests {
    /// Four z1 tiles in four colours and one z2 tile: sampling, overzoom and seams.
    func archive() throws -> TileImagery {
        let colours: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]
        var tiles: [(TileID, [UInt8])] = []
        for (i, c) in colours.enumerated() { tiles.append((TileID(z: 1, x: i % 2, y: i / 2), try tile(c.0, c.1, c.2))) }
        tiles.append((TileID(z: 2, x: 0, y: 0), try tile(10, 20, 30)))
        return try TileImagery(source: try PMTiles(try write(pmtiles(tiles), "imagery.pmtiles")), cache: TileCache(byteLimit: 1 << 24))
    }

    @Test func samplesTilesOverzoomsAndBlendsAcrossSeams() throws {
        let tiles = try archive()
        let imagery = Imagery(tiles: tiles)
        #expect(tiles.tileSize == 256 && tiles.minZoom == 1 && tiles.maxZoom == 2 && imagery.width == 1024)
        // Inside the z2 tile (north-west quarter of the north-west z1 tile).
        #expect(imagery.sample(x: 100, y: 100, level: 0) == SIMD4(10, 20, 30, 255))
        // z2 tile (1, 0) is missing: its parent z1 (0, 0) is magnified (red).
        #expect(imagery.sample(x: 300, y: 100, level: 0) == SIMD4(255, 0, 0, 255))
        // Level 1 reads z1 directly.
        #expect(imagery.sample(x: 100, y: 100, level: 1) == SIMD4(255, 0, 0, 255))
        // On the seam between z1 (0, 1) (blue) and (1, 1) (yellow): half of each.
        let seam = try #require(imagery.sample(x: 512, y: 800, level: 1))
        #expect(seam == SIMD4(127.5, 127.5, 127.5, 255))
        // Across the antimeridian x wraps: the west edge blends with the east tile.
        let wrap = try #require(imagery.sample(x: 0, y: 300, level: 1))
        #expect(wrap == SIMD4(127.5, 127.5, 0, 255))
        // Texels: the position of Null Island is the world's centre.
        let centre = imagery.texel(latitude: 0, longitude: 0)
        #expect(abs(centre.x - 512) < 1e-9 && abs(centre.y - 512) < 1e-6)
    }

    /// Tiles drawn on demand, every texel different; z2 (1, 1) missing (its parent stands in).
    /// With `draws`, each draw is counted and takes `pause` microseconds.
    struct PatternDrawer: TileDrawer {
        var draws: Locked<Int>? = nil
        var pause: UInt32 = 0
        var name: String { "pattern" }
        var attribution: String? { nil }
        var tileSize: Int { 64 }
        var minZoom: Int { 1 }
        var maxZoom: Int { 3 }
        func draw(_ id: TileID) throws -> Pixmap? {
            draws?.withLock { $0 += 1 }
            if pause > 0 { usleep(pause) }
            if id == TileID(z: 2, x: 1, y: 1) { return nil }
            var data = [UInt8](repeating: 255, count: 64 * 64 * 4)
            for y in 0..<64 { for x in 0..<64 {
                let o = (y * 64 + x) * 4
                data[o] = UInt8((x * 4 + id.x * 7) & 0xFF); data[o + 1] = UInt8((y * 4 + id.y * 11) & 0xFF); data[o + 2] = UInt8(id.z * 60)
            } }
            return Pixmap(width: 64, height: 64, premultipliedData: data)
        }
    }

    /// Eight threads asking for the same tile at once: one draws it, the others wait for that
    /// tile (the same object), and a second tile is drawn once too.
    @Test func aTileAskedForByManyThreadsAtOnceIsDrawnOnce() throws {
        let drawer = PatternDrawer(draws: Locked(0), pause: 20_000)
        let imagery = try TileImagery(drawer: drawer, cache: TileCache(byteLimit: 1 << 24))
        let tiles = Locked([ObjectIdentifier?]())
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let tile = imagery.decodedTile(TileID(z: 2, x: i % 2, y: 0))
            tiles.withLock { $0.append(tile.map(ObjectIdentifier.init)) }
        }
        #expect(drawer.draws?.withLock { $0 } == 2)
        #expect(Set(tiles.withLock { $0 }).count == 2 && !tiles.withLock { $0 }.contains(nil))
    }

    /// A tile's mipmaps are made when a read below the drawer's shallowest zoom first needs
    /// them (z1 tiles read at zoom 0, level 1 of the tile): each texel the rounded mean of the
    /// four beneath it; reads at the tile's own zoom never make them.
    @Test func mipmapsAreMadeWhenAReadBelowTheShallowestZoomNeedsThem() throws {
        let imagery = Imagery(tiles: try TileImagery(drawer: PatternDrawer(), cache: TileCache(byteLimit: 1 << 24)))
        // z1 (0, 0)'s own texel (6, 10): (6·4, 10·4, 60).
        #expect(imagery.sample(x: 6.5 * 4, y: 10.5 * 4, level: 2) == SIMD4(24, 40, 60, 255))
        // Its level-1 texel (3, 5) at zoom 0: the means of x 6…7 and y 10…11, (24, 28) and
        // (40, 44): (24 + 28 + 24 + 28 + 2) / 4 = 26 and (40 + 40 + 44 + 44 + 2) / 4 = 42.
        #expect(imagery.sample(x: 3.5 * 8, y: 5.5 * 8, level: 3) == SIMD4(26, 42, 60, 255))
        // z1 (1, 0): red 7 more at every texel.
        #expect(imagery.sample(x: 512 / 2 + 3.5 * 8, y: 5.5 * 8, level: 3) == SIMD4(33, 42, 60, 255))
    }

    /// Sampling through the reader's cursors (a run of positions, or one at a time) gives, bit
    /// for bit, what looking every tile up afresh gives: runs along rows, across tile edges,
    /// into the missing tile, over levels that change zoom, off the world, and through NaN —
    /// for drawn tiles, an archive's, and drawn tiles in a cache too small to keep what the
    /// readers let go (84 tiles against a reader's 16; every other run goes on where the last
    /// ended after lookups elsewhere: a cursor must not read a tile its reader let go, which
    /// debug builds overwrite).
    @Test func runsSampleAsEachPositionDoes() throws {
        let drawn = try TileImagery(drawer: PatternDrawer(), cache: TileCache(byteLimit: 1 << 24))
        let archived = try archive()
        let forgetful = try TileImagery(drawer: PatternDrawer(), cache: TileCache(byteLimit: 60_000))
        for tiles in [drawn, archived, forgetful] {
            let imagery = Imagery(tiles: tiles)
            var state: UInt32 = 1
            func random() -> Double { state = state &* 1_664_525 &+ 1_013_904_223; return Double(state >> 8) / Double(1 << 24) }
            var runReader = ImageryReader(), pixelReader = ImageryReader(), freshReader = ImageryReader()
            var compared = 0
            var end = SIMD3<Double>(0, 0, 0)
            for run in 0..<400 {
                let world = Double(imagery.width)
                var start = SIMD3(random() * world * 1.2 - world * 0.1, random() * world * 1.2 - world * 0.1, random() * 3.5 - 0.5)
                var step = SIMD3((random() - 0.5) * 3, (random() - 0.5) * 0.5, (random() - 0.5) * 0.2)
                if run % 2 == 1 {
                    // Between runs the readers look up tiles elsewhere, letting others go; then a
                    // run goes on in the tile (and zoom) the last ended in.
                    for _ in 0..<24 {
                        let (x, y, level) = (random() * world, random() * world, random() * 3)
                        _ = tiles.sampleLookingUpEachTile(x: x, y: y, level: level, reader: &runReader)
                        _ = tiles.sampleLookingUpEachTile(x: x, y: y, level: level, reader: &pixelReader)
                    }
                    start = end
                    step.z = 0
                }
                if run % 50 == 7 { start.x = .nan }
                if run % 50 == 9 { start.z = .infinity }
                var positions = (0..<8).map { start + step * Double($0) }
                var texels = [SIMD4<Float>?](repeating: SIMD4(-1, -1, -1, -1), count: 8)
                positions.withUnsafeMutableBufferPointer { p in
                    texels.withUnsafeMutableBufferPointer { t in imagery.sampleRun(p.baseAddress!, count: 8, reader: &runReader, into: t.baseAddress!) }
                }
                end = positions[7].x.isFinite && positions[7].z.isFinite ? positions[7] : SIMD3(world / 2, world / 2, 0)
                for (p, texel) in zip(positions, texels) {
                    let expected = tiles.sampleLookingUpEachTile(x: p.x, y: p.y, level: p.z, reader: &freshReader)
                    #expect(texel == expected, "run \(run) at \(p)")
                    #expect(imagery.sample(x: p.x, y: p.y, level: p.z, reader: &pixelReader) == expected, "run \(run) at \(p)")
                    if expected != nil { compared += 1 }
                }
            }
            #expect(compared > 2_000)
        }
    }

    /// One reader handed two archives in turn, at the same tile of the same zoom: each gives its
    /// own colours (a reader's cursors are its imagery's).
    @Test func aReaderHandedAnotherImageryReadsThatImagerysTiles() throws {
        let first = try archive()
        let second = try TileImagery(source: try PMTiles(try write(pmtiles([(TileID(z: 1, x: 0, y: 0), try tile(9, 99, 199)),
                                                                            (TileID(z: 2, x: 0, y: 0), try tile(200, 100, 50))]), "other.pmtiles")),
                                     cache: TileCache(byteLimit: 1 << 24))
        var shared = ImageryReader(), own1 = ImageryReader(), own2 = ImageryReader()
        for i in 0..<20 {
            let x = 40 + Double(i), y = 60.0
            let a = try #require(first.sampleLookingUpEachTile(x: x, y: y, level: 0, reader: &own1))
            let b = try #require(second.sampleLookingUpEachTile(x: x, y: y, level: 0, reader: &own2))
            #expect(a != b)
            #expect(first.sample(x: x, y: y, level: 0, reader: &shared) == a)
            #expect(second.sample(x: x, y: y, level: 0, reader: &shared) == b)
        }
    }

    @Test func theCacheIsBoundedAndCountsHits() throws {
        let cache = TileCache(byteLimit: 600_000)
        let tiles = try TileImagery(source: try PMTiles(try write(pmtiles((0..<4).map { (TileID(z: 1, x: $0 % 2, y: $0 / 2), try! tile(UInt8($0 * 60), 0, 0)) }),
                                                                   "cache.pmtiles")), cache: cache)
        var reader = ImageryReader()
        for x in stride(from: 10.0, to: 512, by: 200) { for y in stride(from: 10.0, to: 512, by: 200) { _ = tiles.sample(x: x, y: y, level: 0, reader: &reader) } }
        let stats = cache.statistics
        // One tile with mipmaps is ~349 KiB: at most one stays under 600 KB.
        #expect(stats.bytes <= 600_000 && stats.tiles <= 2)
        #expect(stats.misses >= 4)
    }
}

@Suite struct TileTerrainTests {
    /// A whole pixel's height read directly is `bilinear`'s there (0 for a void): inside, at
    /// the edges and past them, over voids and signed zeros, and in mosaics one pixel wide or high.
    @Test func wholePixelsReadAsBilinearReadsThem() {
        var state: UInt32 = 5
        func next() -> UInt32 { state = state &* 1_664_525 &+ 1_013_904_223; return state >> 8 }
        for (width, height) in [(7, 5), (1, 4), (6, 1), (1, 1)] {
            let m = (0..<(width * height)).map { _ -> Float in
                switch next() % 5 { case 0: .nan; case 1: -0.0; case 2: 0; default: Float(Int(next() % 4000)) - 200.5 }
            }
            m.withUnsafeBufferPointer { m in
                for y in -2..<(height + 2) {
                    for x in -2..<(width + 2) {
                        let expected = TileTerrain.bilinear(m, width: width, height: height, x: Double(x), y: Double(y)) ?? 0
                        let got = TileTerrain.whole(m, width: width, height: height, x: x, y: y)
                        #expect(got.bitPattern == expected.bitPattern, "\(width)×\(height) at (\(x), \(y)): \(got) against \(expected)")
                    }
                }
            }
        }
    }

    /// Heights from the Terrain-RGB tiles against the SRTM `.hgt` they were made from
    /// (bilinear in N42E001.hgt: 1017.4, 2891.9, 2547.9, 1255.5 m). The tiles are z12
    /// (≈ 28 m pixels) resampled from 90 m samples, so within 25 m.
    /// A mosaic of tiles read through a caller's store of decoded heights is the mosaic read
    /// from the archive, sample for sample (voids as NaN), at the archive's own zoom (each tile's
    /// rows copied) and past its deepest (tiles magnified from their ancestor).
    @Test func mosaicsFromKeptHeightsAreTheArchivesOwn() throws {
        let source = try TileSources.open(fixtures + "andorra-terrainrgb-z8-12.pmtiles")
        var reads = 0
        for zoom in [11, 12, 13] {
            let a = TileID.containing(longitude: 1.52, latitude: 42.55, zoom: zoom)
            let tileSize = try #require(try TileTerrain.decode(source, a)?.width ?? TileTerrain.decode(source, a.ancestor(zoom - 12))?.width)
            let direct = try TileTerrain.mosaic(source, .terrainrgb, zoom: zoom, from: a, tilesX: 2, tilesY: 2, tileSize: tileSize)
            let kept = try TileTerrain.mosaic(source, .terrainrgb, zoom: zoom, from: a, tilesX: 2, tilesY: 2, tileSize: tileSize,
                                              decoded: { (id) throws(TerrainError) in reads += 1; return try TileTerrain.decode(source, id).map { TileTerrain.Heights($0, .terrainrgb) } })
            #expect(direct.found == kept.found && direct.native == kept.native && direct.found > 0)
            #expect(zip(direct.samples, kept.samples).allSatisfy { $0.bitPattern == $1.bitPattern }, "zoom \(zoom)")
            #expect(direct.samples.contains { !$0.isNaN })
        }
        #expect(reads > 0)
    }

    @Test func andorraReliefMatchesTheHGT() throws {
        let source = try TileSources.open(fixtures + "andorra-terrainrgb-z8-12.pmtiles")
        let (grid, zoom) = try TileTerrain.grid(source, encoding: .terrainrgb)
        #expect(zoom == 12)
        for (lat, lon, expected) in [(42.5063, 1.5218, 1017.4), (42.5918, 1.4442, 2891.9), (42.5839, 1.5736, 2547.9), (42.5347, 1.5806, 1255.5)] {
            let h = try #require(grid.height(latitude: lat, longitude: lon))
            #expect(abs(h - expected) < 25, "\(lat), \(lon): \(h) m, SRTM \(expected) m")
        }
        // A small budget picks a coarser zoom; a view of a corner only its tiles.
        #expect(try TileTerrain.grid(source, encoding: .terrainrgb, maxSamples: 300_000).zoom < 12)
        let corner = try TileTerrain.grid(source, encoding: .terrainrgb, area: [1.50, 42.50, 1.55, 42.53]).grid
        #expect(corner.columns <= 512 && corner.rows <= 512)
    }

    @Test func encodings() {
        #expect(ElevationEncoding.terrainrgb.height(1, 134, 160) == 0)
        #expect(ElevationEncoding.terrarium.height(128, 0, 0) == 0)
        #expect(ElevationEncoding.terrarium.height(131, 232, 128) == 1000.5)
    }
}

/// What an archive's metadata and views may cost: values SQLite would have to make or read
/// beyond a tile's 16 MiB, metadata beyond 16 MiB, and an attribution beyond 1,000 characters.
@Suite struct ArchiveMetadataLimitTests {
    func archive(_ script: String) throws -> String {
        let path = ProcessScratch.path("\(UInt32.random(in: 0...UInt32.max)).mbtiles")
        #expect(MBTiles.create(path, script: script) == nil)
        return path
    }

    @Test func sqliteMakesNoValueLargerThanATile() throws {
        // A metadata view computing a 20 MiB attribution: refused, naming SQLite's reason.
        let view = try archive("CREATE VIEW metadata AS SELECT 'attribution' AS name, replace(hex(zeroblob(10485760)), '0', 'a') AS value;"
                               + "CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);")
        defer { unlink(view) }
        #expect { _ = try MBTiles(view) } throws: { "\($0)".contains("reading its metadata") && "\($0)".contains("too big") }
        // Every tile a zeroblob of 900 MB: the read fails inside SQLite, nothing allocated.
        let blobs = try archive("CREATE TABLE metadata (name text, value text); INSERT INTO metadata VALUES ('format', 'png');"
                                + "CREATE VIEW tiles AS SELECT 0 AS zoom_level, 0 AS tile_column, 0 AS tile_row, zeroblob(900000000) AS tile_data;")
        defer { unlink(blobs) }
        let source = try MBTiles(blobs)
        #expect { _ = try source.tile(TileID(z: 0, x: 0, y: 0)) } throws: { "\($0)".contains("too big") }
        // Two metadata rows of 9 MiB: over 16 MiB together.
        let rows = try archive("CREATE TABLE metadata (name text, value text); INSERT INTO metadata VALUES ('a', zeroblob(9437184)), ('b', zeroblob(9437184));"
                               + "CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);")
        defer { unlink(rows) }
        #expect { _ = try MBTiles(rows) } throws: { "\($0)".contains("its metadata is larger than 16777216 bytes") }
    }

    /// A `tiles` view doing heavy work on every read, each within the statement's budget: the
    /// archive's reads stop once they have spent its budget in all (here 3 M steps; 500 M by
    /// default), and every later read fails at once, naming it.
    @Test func heavyViewsSpendTheArchivesBudgetInAll() throws {
        let path = try archive("CREATE TABLE metadata (name text, value text); INSERT INTO metadata VALUES ('format', 'png');"
                               + "CREATE TABLE plain (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);"
                               + "INSERT INTO plain VALUES (0, 0, 0, X'00');"
                               + "CREATE VIEW tiles AS SELECT * FROM plain WHERE (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 30000) SELECT count(*) FROM c) > 0;")
        defer { unlink(path) }
        let source = try MBTiles(path, stepsPerStatement: 1_000_000, stepsInAll: 3_000_000)
        var read = 0
        for _ in 0..<20 { if (try? source.tile(TileID(z: 0, x: 0, y: 0))) != nil { read += 1 } }
        #expect(read > 2 && read < 10, "\(read) reads of about 510,000 steps each")
        #expect { _ = try source.tile(TileID(z: 0, x: 0, y: 0)) } throws: { "\($0)".contains("its reads took more than 3000000 SQLite steps in all") }
        #expect(MBTiles.maxStepsInAll == 500_000_000)
    }

    @Test func attributionsAreCutShortAndMetadataBounded() throws {
        let long = TileSourceInfo(type: .png, minZoom: 0, maxZoom: 1, attribution: "<a href='x'>&copy; Someone</a> " + String(repeating: "credit ", count: 1_000_000))
        #expect(long.attribution?.count == 1_000 && long.attribution?.hasPrefix("© Someone credit") == true && long.attribution?.hasSuffix("…") == true)
        #expect(TileSourceInfo(type: .png, minZoom: 0, maxZoom: 1, attribution: "<b>© OpenMapTiles</b>").attribution == "© OpenMapTiles")
        // PMTiles metadata inflating past 16 MiB: refused before it is parsed.
        let big = pmtiles([(TileID(z: 0, x: 0, y: 0), [1, 2, 3])], metadata: #"{"attribution": ""# + String(repeating: "a", count: (16 << 20) + 1) + #""}"#)
        let path = try write(big, "big-metadata.pmtiles")
        defer { unlink(path) }
        #expect { _ = try PMTiles(path) } throws: { "\($0)".contains("more than 16777216") }
    }
}

@Suite struct SharedDecodeTests {
    /// Tiles with the same bytes (an archive's shared or repeated tiles: open sea) are decoded
    /// once while one of them is held: each number gets the same decoded tile.
    @Test func tilesWithTheSameBytesShareOneDecode() throws {
        let sea = try tile(20, 60, 200), land = try tile(90, 140, 60)
        let archive = pmtiles([(TileID(z: 1, x: 0, y: 0), sea), (TileID(z: 1, x: 1, y: 0), land), (TileID(z: 1, x: 0, y: 1), sea), (TileID(z: 1, x: 1, y: 1), sea)])
        let path = try write(archive, "shared-decode.pmtiles")
        defer { unlink(path) }
        let imagery = try TileImagery(source: try TileSources.open(path), cache: TileCache(byteLimit: 64 << 20))
        let a = try #require(imagery.decodedTile(TileID(z: 1, x: 0, y: 0)))
        let b = try #require(imagery.decodedTile(TileID(z: 1, x: 0, y: 1))), c = try #require(imagery.decodedTile(TileID(z: 1, x: 1, y: 1)))
        let other = try #require(imagery.decodedTile(TileID(z: 1, x: 1, y: 0)))
        #expect(a === b && b === c && a !== other)
    }
}
