import Testing
import TerrapinIO

@Suite struct WorkMeterTests {
    /// Each kind's spend is a share of its limit; the shares add up, and the spend that passes 1
    /// exhausts the meter, names its input and is the last one allowed.
    @Test func sharesOfEveryKindAddUpToOneBudget() {
        let meter = WorkMeter()
        #expect(meter.spend(.decodedBytes, WorkMeter.Kind.decodedBytes.limit / 2, on: "an image"))
        #expect(meter.spend(.stylePixels, WorkMeter.Kind.stylePixels.limit / 4, on: "layer 'roads'"))
        #expect(abs(meter.share - 0.75) < 1e-12)
        #expect(meter.share(of: .stylePixels) == 0.25)
        #expect(!meter.isExhausted)
        // A third kind, alone well within its own limit, passes the budget shared with the others.
        #expect(!meter.spend(.modelPixels, WorkMeter.Kind.modelPixels.limit * 0.3, on: "its 2 models"))
        #expect(meter.exhaustion?.kind == .modelPixels && meter.exhaustion?.input == "its 2 models")
        // Nothing more is allowed, not even a small spend of another kind, and nothing is added.
        #expect(!meter.spend(.stringBytes, 1, on: "a concat"))
        #expect(meter.share(of: .stringBytes) == 0)
        #expect(meter.description == "105 % of the work budget (decoded bytes 50 %, style pixels 25 %, model pixels 30 %)")
        let refusal = meter.refusal ?? ""
        #expect(refusal.hasPrefix("the render's work budget ran out at its 2 models: decoded bytes 50 %, style pixels 25 %, model pixels 30 % of it spent"))
        #expect(refusal.contains("(the largest: decoded bytes, whose limit alone is 1 GiB)"))
        #expect(refusal.hasSuffix("use fewer or smaller images, tiles and archives, or a smaller output"))
    }

    /// Shares print whole from 10 %, to a tenth below.
    @Test func sharesPrintAsPercentages() {
        let meter = WorkMeter()
        meter.spend(.stylePixels, 4e9 * 0.004, on: "a layer")
        meter.spend(.decodedBytes, 1_073_741_824 * 0.0004, on: "a tile")
        #expect(meter.description == "0.4 % of the work budget (decoded bytes <0.1 %, style pixels 0.4 %)")
        #expect(WorkMeter().description == "0 % of the work budget")
        // Amounts in words, none of them a trap however large.
        #expect(WorkMeter.count(5e9) == "5.0 G" && WorkMeter.count(12_345_678) == "12.3 M" && WorkMeter.count(7680) == "7680")
        #expect(WorkMeter.count(.infinity) == "unbounded" && WorkMeter.count(1e300).hasSuffix(" G"))
        let huge = WorkMeter(scale: 1e-300)
        huge.spend(.stylePixels, 1e10, on: "a layer")
        #expect(huge.description.hasSuffix("% of the work budget (style pixels 1000000000000000 %)"))
    }

    /// Non-finite or NaN amounts exhaust the meter rather than poisoning it; zero and negative
    /// amounts spend nothing.
    @Test func oddAmountsNeverLetWorkThrough() {
        let meter = WorkMeter()
        #expect(meter.spend(.decodedBytes, 0, on: "nothing"))
        #expect(meter.spend(.decodedBytes, -5, on: "less than nothing"))
        #expect(meter.share == 0)
        #expect(!meter.spend(.stylePixels, .nan, on: "a NaN"))
        #expect(meter.exhaustion?.input == "a NaN")
        let other = WorkMeter()
        #expect(!other.spend(.stylePixels, .infinity, on: "infinity"))
    }

    /// A render's meter starts from what its scene's load spent; a scaled meter has every limit
    /// scaled; running out cancels the render's stop signal, and not the caller's it follows.
    @Test func aRenderContinuesTheLoadsMeterAndStopsWhenItRunsOut() {
        let load = WorkMeter(scale: 0.001)
        #expect(load.spend(.decodedBytes, WorkMeter.Kind.decodedBytes.limit * 0.0006, on: "tiles"))
        #expect(abs(load.share - 0.6) < 1e-9)
        let caller = Cancellation()
        let stop = Cancellation(following: caller)
        let render = WorkMeter(scale: load.scale, continuing: load, stop: stop)
        #expect(abs(render.share - 0.6) < 1e-9)
        #expect(!stop.isCancelled)
        #expect(!render.spend(.forecast, 0.5 * 0.001, on: "the drawing forecast"))
        #expect(stop.isCancelled)
        #expect(!caller.isCancelled)
        // The load's meter is untouched by the render's spending.
        #expect(abs(load.share - 0.6) < 1e-9)
        // A signal follows its parent's cancellation.
        let other = Cancellation(following: caller)
        caller.cancel()
        #expect(other.isCancelled)
    }

    /// Code deep in a stage spends on the render's meter without it being passed down; with no
    /// render bound, spending is free.
    @Test func theCurrentRendersMeterIsBoundForItsStages() {
        #expect(WorkMeter.spend(.decodedBytes, .infinity, on: "no render"))
        #expect(!WorkMeter.isExhausted)
        let meter = WorkMeter()
        WorkMeter.$current.withValue(meter) {
            #expect(WorkMeter.spend(.stringBytes, WorkMeter.Kind.stringBytes.limit / 2, on: "a concat"))
            #expect(!WorkMeter.isExhausted)
            #expect(!WorkMeter.spend(.stringBytes, WorkMeter.Kind.stringBytes.limit, on: "another concat"))
            #expect(WorkMeter.isExhausted)
        }
        #expect(meter.exhaustion?.input == "another concat")
        #expect(!WorkMeter.isExhausted)
    }
}
