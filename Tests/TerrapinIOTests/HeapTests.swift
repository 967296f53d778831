import Testing
import TerrapinIO

@Suite struct HeapTests {
    /// glibc takes both thresholds (mallopt answers 1 for each; under `make sanitize` the
    /// sanitizer's allocator serves every allocation and none is set), and they are the
    /// documented ones: allocations to 32 MiB from the heap, its top trimmed past 64 MiB.
    @Test func theCLIsHeapThresholdsAreTaken() {
        #expect(Heap.mappedAbove == 32 << 20)
        #expect(Heap.trimmedAbove == 64 << 20)
        #expect(Heap.keepFreedMemoryForReuse() == !Heap.isASanitizersAllocator)
    }
}
