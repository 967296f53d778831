// The C library's heap, as a command-line program sets it once at its start.

public enum Heap {
    /// Allocations up to this many bytes come from the heap, not a mapping of their own.
    public static let mappedAbove: Int32 = 32 << 20
    /// Free memory at the top of a heap goes back to the kernel only past this many bytes.
    public static let trimmedAbove: Int32 = 64 << 20

    /// Keeps the memory a render frees for its next allocations. A render allocates and frees
    /// canvases, tile textures and masks of 1–3 MiB many times over; by default glibc gave each
    /// back to the kernel (a mapping of its own, or the heap's top trimmed past 128 KiB) and the
    /// next came back as fresh pages, each faulted in and zeroed by the kernel: about a fifth
    /// of a cold monaco-patterns render (36,900 page faults; 11,700 with these thresholds). The cost
    /// is that up to `trimmedAbove` bytes of freed memory stay with each of the heap's arenas.
    /// Outputs are the same bytes either way. Returns whether both thresholds were set: always
    /// with the C library's malloc, never under a sanitizer's allocator (`make sanitize`), which
    /// serves every allocation itself: AddressSanitizer refuses `mallopt`, and under
    /// ThreadSanitizer `mallopt` reaches glibc's malloc, which nothing uses, so it is not called.
    @discardableResult
    public static func keepFreedMemoryForReuse() -> Bool {
        guard !isASanitizersAllocator else { return false }
        return Kernel.setHeapThresholds(mapped: mappedAbove, trimmed: trimmedAbove)
    }

    /// Whether a sanitizer's allocator stands in for the C library's malloc.
    public static var isASanitizersAllocator: Bool { Kernel.mallocIsASanitizers }
}
