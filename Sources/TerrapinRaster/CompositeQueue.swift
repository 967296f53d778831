// Composites run on a second thread while the caller goes on: painting thousands of markers is
// half walking views (layout, sprite and glyph look-ups) and half compositing their masks and
// sprites, and the two can overlap. Inside `Canvas.deferringComposites` the canvas queues its
// unclipped solid-colour mask fills (glyphs), coverage-sprite fills and sprite draws instead of
// drawing them; a serial queue draws them in the order given. Every other drawing and every
// read of `pixmap` first waits until the queue is empty, so each pixel sees the same operations
// in the same order as when drawing directly: the same bytes at any thread count.
import Dispatch

final class CompositeQueue {
    /// A queued composite: what it draws, already in device pixels and premultiplied colour.
    enum Operation: Sendable {
        case mask([UInt8], width: Int, x: Int, y: Int, source: UInt32)
        /// A small mask copied into its batch's bytes at `start` (see `addMask`).
        case copiedMask(start: Int, count: Int, width: Int, x: Int, y: Int, source: UInt32)
        case coverage(CoverageSprite, x: Int, y: Int, source: UInt32)
        case sprite(Sprite, x: Int, y: Int)
    }

    /// Operations handed over together: one hand-over costs about as much as a few glyphs.
    static let batchSize = 256
    /// Batches handed over in a chunk. At most two chunks are in flight: a caller that outruns
    /// the drawing waits, before it starts a third, for the older one to be drawn (under 1 MiB
    /// queued), rather than queueing without bound. Waiting per chunk, not per batch, keeps the
    /// wake-ups off the drawing thread: a semaphore slot per batch, whose signal wakes the
    /// caller each time, made S2's paint 4–20 ms slower here, and waiting for the whole queue
    /// every 64 batches left both threads idle in turn (5–15 ms).
    static let chunkBatches = 32

    /// The canvas the operations draw into, carried to the drawing thread. Sound because the
    /// canvas's pixels are then touched by that thread alone: the canvas waits (`finish`) before
    /// it reads or draws them itself.
    private struct Target: @unchecked Sendable {
        unowned let canvas: Canvas
    }

    private let target: Target
    private let queue = DispatchQueue(label: "terrapin.canvas.composites")
    /// The chunk before the current one, and the current one.
    private var older = DispatchGroup(), current = DispatchGroup()
    /// Masks of at most this many bytes are copied into the batch rather than referenced.
    static let copiedMaskBytes = 4096
    /// A batch is handed over once its copied masks hold this many bytes (so the two chunks in
    /// flight hold at most 2 × 32 × 64 KiB of them).
    static let batchBytes = 64 * 1024

    /// What the next hand-over gathers: the operations, and the bytes of their copied masks.
    /// Behind a pointer the queue owns: as stored properties of this class, each glyph's appends
    /// were checked for exclusive access at run time (about 240 instructions a glyph).
    private struct Pending {
        var batch: [Operation] = []
        var bytes: [UInt8] = []
    }
    private let pending: UnsafeMutablePointer<Pending>
    /// Batches handed over in the current chunk.
    private var handedOver = 0

    init(_ canvas: Canvas) {
        target = Target(canvas: canvas)
        pending = .allocate(capacity: 1)
        pending.initialize(to: Pending())
        pending.pointee.batch.reserveCapacity(Self.batchSize)
    }

    deinit {
        pending.deinitialize(count: 1)
        pending.deallocate()
    }

    func add(_ operation: Operation) {
        pending.pointee.batch.append(operation)
        if pending.pointee.batch.count >= Self.batchSize { handOver() }
    }

    /// Queues a solid-colour mask fill. A small mask (a glyph's) is copied into the batch: the
    /// same glyph masks are queued thousands of times, and referencing them had both threads
    /// retain and release the same few arrays, their counts bouncing between the cores (the
    /// drawing thread stalled on reading a mask's header).
    func addMask(_ mask: [UInt8], width: Int, x: Int, y: Int, source: UInt32) {
        guard mask.count <= Self.copiedMaskBytes else {
            add(.mask(mask, width: width, x: x, y: y, source: source))
            return
        }
        let p = pending
        if p.pointee.bytes.capacity == 0 { p.pointee.bytes.reserveCapacity(Self.batchBytes + Self.copiedMaskBytes) }
        p.pointee.batch.append(.copiedMask(start: p.pointee.bytes.count, count: mask.count, width: width, x: x, y: y, source: source))
        p.pointee.bytes.append(contentsOf: mask)
        if p.pointee.batch.count >= Self.batchSize || p.pointee.bytes.count >= Self.batchBytes { handOver() }
    }

    private func handOver() {
        guard !pending.pointee.batch.isEmpty else { return }
        let operations = pending.pointee.batch, copied = pending.pointee.bytes
        pending.pointee.batch.removeAll(keepingCapacity: true)
        pending.pointee.bytes = []
        if handedOver == Self.chunkBatches {
            older.wait()
            older = current
            current = DispatchGroup()
            handedOver = 0
        }
        handedOver += 1
        queue.async(group: current) { [target] in target.canvas.run(operations, copied) }
    }

    /// Returns once every operation added has been drawn.
    func finish() {
        guard handedOver > 0 || !pending.pointee.batch.isEmpty else { return }
        handOver()
        // (The queue is serial: the current chunk done, so is the older one.)
        current.wait()
        handedOver = 0
    }
}
