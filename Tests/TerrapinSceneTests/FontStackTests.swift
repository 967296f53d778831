// A style's font stacks, each come to a font request once a process.
import Testing
@testable import TerrapinScene

@Suite struct FontStackTests {
    /// Each stack comes to the same request however often, at whatever size, it is asked (kept
    /// once made); a family the machine lacks comes to the default family at its weight and
    /// slant, a family it has to itself.
    @Test func aStackComesToTheSameRequestEveryTime() {
        let stacks = [["DejaVu Sans Bold"], ["DejaVu Sans Oblique", "Noto Sans Regular"], ["No Such Family Italic"], ["No Such Family Semibold"], []]
        for names in stacks {
            let first = DrawnBasemap.font(names, size: 12), again = DrawnBasemap.font(names, size: 16)
            #expect(first.request == DrawnBasemap.fontRequest(names) && again.request == first.request, "\(names)")
            #expect(first.size == 12 && again.size == 16)
        }
        let bold = DrawnBasemap.fontRequest(["DejaVu Sans Bold"])
        #expect(bold.family == "DejaVu Sans" && bold.weight == .bold && !bold.italic)
        let missing = DrawnBasemap.fontRequest(["No Such Family Italic"])
        #expect(missing.family != "No Such Family" && missing.weight == .regular && missing.italic)
    }

    /// At most 4,096 stacks are kept (a style's font expressions can name any number); past
    /// that a stack's request is made each time, the same.
    @Test func atMost4096StacksAreKept() {
        for i in 0..<(DrawnBasemap.maxFontStacks + 10) { _ = DrawnBasemap.font(["DejaVu Sans Bold", "fallback \(i)"], size: 10) }
        #expect(DrawnBasemap.fontRequests.withLock { $0.count } == DrawnBasemap.maxFontStacks)
        let past = DrawnBasemap.font(["DejaVu Sans Bold", "fallback \(DrawnBasemap.maxFontStacks + 5)"], size: 10)
        #expect(past.request == DrawnBasemap.fontRequest(["DejaVu Sans Bold"]))
    }
}
