// MBTiles 1.3 (https://github.com/mapbox/mbtiles-spec): an SQLite database with a `tiles`
// table (zoom_level, tile_column, tile_row in TMS order — row 0 is the south — and tile_data)
// and a `metadata` table of name/value text. Opened read-only and immutable (no locks, no
// journal written); one connection per archive, used under a lock. Every statement runs within
// a work budget (`maxStepsPerStatement`, CTerrapinSQLite): a view that never ends is an error,
// not a hang.
import CSQLite
import CTerrapinSQLite
import TerrapinIO

public final class MBTiles: TileSource {
    public let path: String
    public let info: TileSourceInfo
    /// The `metadata` table, name → value.
    public let metadata: [String: String]
    private let db: Locked<Connection>
    /// The file as opened (SQLite opens it again through /proc/self/fd when confined).
    private let file: OpenFile

    /// SQLite virtual-machine steps one statement may take (about a second of work): an indexed
    /// tile read takes hundreds, a scan of a million tiles a few million.
    public static let maxStepsPerStatement = 100_000_000

    /// SQLite steps all of an archive's statements may take together, counted in the steps of
    /// long statements only (SQLite looks every 1,000 steps: an indexed read never gets there):
    /// a view that stays under the budget of each read, but does heavy work on every one, is
    /// stopped after about five seconds of it, however many tiles a view reads.
    public static let maxStepsInAll = 500_000_000

    /// The most bytes the `metadata` table's names and values may hold together (its `json`
    /// row, the vector layers and their statistics, is the large one: a few hundred KiB for a
    /// planet).
    public static let maxMetadataBytes = 16 << 20

    final class Connection: @unchecked Sendable {
        let handle: OpaquePointer
        let select: OpaquePointer
        let work: OpaquePointer?
        /// A statement ran out of budget: the archive is hostile or broken, and every later read
        /// fails at once instead of spending the budget again.
        var exhausted = false
        init(handle: OpaquePointer, select: OpaquePointer, work: OpaquePointer?) { self.handle = handle; self.select = select; self.work = work }
        deinit {
            sqlite3_finalize(select)
            tp_sqlite_free_work(handle, work)
            sqlite3_close_v2(handle)
        }
    }

    /// The budget every statement of this archive has (`maxStepsPerStatement` unless given).
    public let stepsPerStatement: Int

    /// The budget all its statements have together (`maxStepsInAll` unless given).
    public let stepsInAll: Int

    public init(_ path: String, files: FileAccess = .unrestricted, stepsPerStatement: Int = MBTiles.maxStepsPerStatement,
                stepsInAll: Int = MBTiles.maxStepsInAll) throws(TileError) {
        self.stepsPerStatement = max(1000, stepsPerStatement)
        self.stepsInAll = max(1000, stepsInAll)
        // Opened first: SQLite would block opening a FIFO and happily create a missing file.
        // Confined, SQLite opens the very file that open found (its descriptor's /proc link), so
        // a path swapped in between cannot lead it elsewhere.
        do { file = try files.open(path) } catch { throw .file(error) }
        self.path = path
        var handle: OpaquePointer?
        let uri = "file:" + Self.percentEncoded(files.rootPath == nil ? path : "/proc/self/fd/\(file.fd)") + "?immutable=1"
        let status = sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            throw .database(path: path, message: message)
        }
        func fail(_ context: String) -> TileError {
            let m = String(cString: sqlite3_errmsg(handle))
            return .database(path: path, message: "\(context): \(m)")
        }
        let work = tp_sqlite_bound_work(handle, max(1000, stepsPerStatement) / 1000, max(1000, stepsInAll) / 1000)
        // No string or blob larger than a tile may have, made or read: a view computing a
        // gigabyte (`zeroblob(9e8)`, a `replace` over a huge `hex`) fails inside SQLite instead
        // of being allocated.
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Int32(TileSources.maxTileBytes))
        func close() {
            tp_sqlite_free_work(handle, work)
            sqlite3_close_v2(handle)
        }
        var metadata: [String: String] = [:]
        var statement: OpaquePointer?
        if sqlite3_prepare_v2(handle, "SELECT name, value FROM metadata LIMIT 1000", -1, &statement, nil) == SQLITE_OK, let statement {
            tp_sqlite_reset_work(work)
            var step = sqlite3_step(statement)
            // Its names and values together at most `maxMetadataBytes`.
            var bytes = 0
            while step == SQLITE_ROW {
                bytes += Int(sqlite3_column_bytes(statement, 0)) + Int(sqlite3_column_bytes(statement, 1))
                if bytes > Self.maxMetadataBytes {
                    sqlite3_finalize(statement)
                    close()
                    throw .database(path: path, message: "its metadata is larger than \(Self.maxMetadataBytes) bytes; give one whose `metadata` holds names and short values")
                }
                if let name = sqlite3_column_text(statement, 0), let value = sqlite3_column_text(statement, 1) {
                    metadata[String(cString: name)] = String(cString: value)
                }
                step = sqlite3_step(statement)
            }
            let message = String(cString: sqlite3_errmsg(handle))
            sqlite3_finalize(statement)
            if step == SQLITE_INTERRUPT {
                close()
                throw .database(path: path, message: Self.tooMuchWork("reading its metadata", stepsPerStatement))
            }
            if step != SQLITE_DONE {
                close()
                throw .database(path: path, message: "reading its metadata: \(message)")
            }
            // Its bytes and steps charged to the render's work budget.
            let used = Double(tp_sqlite_used(work)) * 1000
            guard WorkMeter.spend(.decodedBytes, Double(bytes), on: "the metadata of '\(path)'"),
                  used == 0 || WorkMeter.spend(.databaseSteps, used, on: "the metadata of '\(path)'") else {
                close()
                throw .database(path: path, message: "reading its metadata would pass \(WorkMeter.noRoom)")
            }
        }
        var select: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3",
                                 -1, &select, nil) == SQLITE_OK, let select else {
            let error = fail("it has no `tiles` table or view")
            close()
            throw error
        }
        db = Locked(Connection(handle: handle, select: select, work: work))
        self.metadata = metadata
        var minZoom = Int(metadata["minzoom"] ?? "") ?? 0, maxZoom = Int(metadata["maxzoom"] ?? "") ?? 22
        tp_sqlite_reset_work(work)
        if metadata["minzoom"] == nil || metadata["maxzoom"] == nil, let range = Self.zoomRange(handle) { (minZoom, maxZoom) = range }
        info = TileSourceInfo(type: TileMetadata.type(format: metadata["format"]), minZoom: max(0, minZoom), maxZoom: min(30, maxZoom),
                              bounds: TileMetadata.bounds(metadata["bounds"]), attribution: metadata["attribution"], name: metadata["name"])
    }

    static func zoomRange(_ handle: OpaquePointer) -> (Int, Int)? {
        var s: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "SELECT min(zoom_level), max(zoom_level) FROM tiles", -1, &s, nil) == SQLITE_OK, let s else { return nil }
        defer { sqlite3_finalize(s) }
        guard sqlite3_step(s) == SQLITE_ROW, sqlite3_column_type(s, 0) == SQLITE_INTEGER else { return nil }
        return (Int(sqlite3_column_int(s, 0)), Int(sqlite3_column_int(s, 1)))
    }

    public func tile(_ id: TileID) throws(TileError) -> [UInt8]? {
        guard id.isValid else { return nil }
        let row = (1 << id.z) - 1 - id.y
        let raw = try db.withLock { (c) throws(TileError) -> [UInt8]? in
            if c.exhausted {
                throw .database(path: path, message: exhaustion("an earlier read", c.work))
            }
            sqlite3_reset(c.select)
            tp_sqlite_reset_work(c.work)
            sqlite3_bind_int(c.select, 1, Int32(id.z))
            sqlite3_bind_int(c.select, 2, Int32(id.x))
            sqlite3_bind_int(c.select, 3, Int32(row))
            let step = sqlite3_step(c.select)
            // A long read's steps charged to the render's work budget (an indexed read takes
            // fewer than SQLite counts).
            let used = tp_sqlite_used(c.work)
            if used > 0, !WorkMeter.spend(.databaseSteps, Double(used) * 1000, on: "reading tile \(id) of '\(path)'") {
                throw .database(path: path, message: "reading tile \(id) would pass \(WorkMeter.noRoom)")
            }
            if step == SQLITE_DONE { return nil }
            if step == SQLITE_INTERRUPT {
                c.exhausted = true
                throw .database(path: path, message: exhaustion("reading tile \(id)", c.work))
            }
            guard step == SQLITE_ROW else { throw .database(path: path, message: "reading tile \(id): \(String(cString: sqlite3_errmsg(c.handle)))") }
            let count = Int(sqlite3_column_bytes(c.select, 0))
            guard count <= TileSources.maxTileBytes else { throw .corrupt(path: path, what: "tile \(id) is \(count) bytes") }
            guard count > 0, let blob = sqlite3_column_blob(c.select, 0) else { return [] }
            return Array(UnsafeRawBufferPointer(start: blob, count: count))
        }
        guard let raw else { return nil }
        return try TileSources.ungzipped(raw, source: "tile \(id) of '\(path)'")
    }

    /// Why a read was stopped: the archive's budget in all spent, or `what`'s own.
    func exhaustion(_ what: String, _ work: OpaquePointer?) -> String {
        tp_sqlite_total_spent(work) != 0 ? Self.tooMuchWorkInAll(stepsInAll) : Self.tooMuchWork(what, stepsPerStatement)
    }

    static func tooMuchWorkInAll(_ steps: Int) -> String {
        "its reads took more than \(steps) SQLite steps in all (does `tiles` do heavy work on every read?); give an archive of plain tables"
    }

    static func tooMuchWork(_ what: String, _ steps: Int) -> String {
        "\(what) took more than \(steps) SQLite steps (is `tiles` or `metadata` a view that never ends?); give an archive of plain tables"
    }

    /// A path as the `file:` URI SQLite takes ('?', '#' and '%' escaped).
    static func percentEncoded(_ path: String) -> String {
        var out = ""
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "%"): out += "%" + String(b, radix: 16, uppercase: true)
            default: out.unicodeScalars.append(Unicode.Scalar(b))
            }
        }
        return out
    }
}

extension MBTiles {
    /// Makes a new SQLite database at `path` by running `script` (tables, views, rows; blobs as
    /// `X'…'` literals), for tests and stress cases that need an archive of a given shape. Nil
    /// when it worked, else SQLite's message.
    package static func create(_ path: String, script: String) -> String? {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            return "cannot create \(path)"
        }
        defer { sqlite3_close_v2(handle) }
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, script, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            return message.map { String(cString: $0) } ?? "the script failed"
        }
        return nil
    }
}
