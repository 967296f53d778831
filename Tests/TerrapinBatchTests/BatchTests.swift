import Testing
@testable import TerrapinBatch

@Suite struct BatchTests {
    let names = (0..<300).map { BatchInput(scene: "s/\($0).json", name: "place-\($0)") }

    @Test func shardsPartitionTheInputsWhateverTheirOrder() {
        for count in [1, 2, 3, 7] {
            let shards = (0..<count).map { i in Set(names.filter { Batch.inShard($0, index: i, count: count) }.map(\.name)) }
            #expect(shards.reduce(0) { $0 + $1.count } == names.count, "no overlap, nothing lost")
            #expect(shards.reduce(Set<String>()) { $0.union($1) } == Set(names.map(\.name)))
            let reversed = (0..<count).map { i in Set(names.reversed().filter { Batch.inShard($0, index: i, count: count) }.map(\.name)) }
            #expect(reversed == shards)
            // Roughly even: every shard of 300 holds at least half its share.
            #expect(shards.allSatisfy { $0.count >= names.count / count / 2 })
        }
    }

    @Test func outputPathsFollowTheTemplate() {
        #expect(Batch.outputPath("thumbs/{name}-{width}x{height}{scale}.png", name: "ferry", width: 256, height: 192, scale: 1) == "thumbs/ferry-256x192.png")
        #expect(Batch.outputPath("thumbs/{name}-{width}x{height}{scale}.png", name: "ferry", width: 256, height: 192, scale: 2) == "thumbs/ferry-256x192@2x.png")
        #expect(Batch.outputPath("{name}/{scale}{name}.png", name: "a", width: 1, height: 1, scale: 3) == "a/@3xa.png")
    }

    @Test func templatesThatWouldCollideAreRefused() {
        var options = BatchOptions()
        #expect(throws: BatchError.usage("several scenes need {name} in the output template")) {
            try Batch.checkTemplate("out.png", inputs: 2, options: options)
        }
        options.sizes = [(10, 10), (20, 20)]
        #expect(throws: BatchError.usage("several sizes need {width} and {height} in the output template")) {
            try Batch.checkTemplate("{name}.png", inputs: 2, options: options)
        }
        options.sizes = nil
        options.scales = [1, 2]
        #expect(throws: BatchError.usage("several scales need {scale} in the output template")) {
            try Batch.checkTemplate("{name}-{width}.png", inputs: 2, options: options)
        }
        #expect(throws: BatchError.self) { try Batch.checkTemplate("{nmae}.png", inputs: 1, options: BatchOptions()) }
        #expect(throws: Never.self) { try Batch.checkTemplate("out/{name}{scale}.png", inputs: 5, options: options) }
    }

    @Test func duplicateNamesAreRefused() {
        #expect(throws: BatchError.self) { try Batch.checkUnique([BatchInput(scene: "a/x.json", name: "x"), BatchInput(scene: "b/x.json", name: "x")]) }
    }

    @Test func summaryJSONEscapesReasons() {
        let summary = BatchSummary(results: [
            BatchResult(scene: "a.json", output: "a.png", outcome: .rendered),
            BatchResult(scene: "b.json", output: nil, outcome: .failed("scene 'b.json': \"quoted\"\nline")),
        ], seconds: 1.23456, planned: 2)
        #expect(summary.json == #"{"total": 2, "rendered": 1, "skipped": 0, "failed": 1, "remaining": 0, "seconds": 1.235, "interrupted": false, "failures": [{"scene": "b.json", "output": null, "reason": "scene 'b.json': \"quoted\"\nline"}], "stages": {}}"#)
    }

    @Test func summaryJSONSumsEachStagesTimeInOrder() {
        let summary = BatchSummary(results: [
            BatchResult(scene: "a.json", output: "a.png", outcome: .rendered, stages: ["paint": 30, "decode": 1, "encode": 4.0004]),
            BatchResult(scene: "b.json", output: "b.png", outcome: .rendered, stages: ["paint": 0.25, "decode": 0.5, "load": 2]),
            BatchResult(scene: "c.json", output: "c.png", outcome: .skipped),
        ], seconds: 1, planned: 3)
        #expect(summary.json.hasSuffix(#""stages": {"decode": 1.5, "load": 2.0, "paint": 30.25, "encode": 4.0}}"#))
        #expect(summary.stageMilliseconds == ["decode": 1.5, "load": 2, "paint": 30.25, "encode": 4.0004])
    }

    @Test func anInterruptedRunCountsWhatWasPlannedAndWhatRemains() {
        let summary = BatchSummary(results: [BatchResult(scene: "a.json", output: "a.png", outcome: .rendered)], seconds: 1, planned: 5)
        #expect(summary.remaining == 4 && summary.json.hasPrefix(#"{"total": 5, "rendered": 1, "skipped": 0, "failed": 0, "remaining": 4,"#))
    }

    @Test func anOutputTemplateCannotClimbOutOfItsFolder() {
        let options = BatchOptions()
        #expect(throws: BatchError.self) { try Batch.checkTemplate("out/{name}/../../x/{name}.png", inputs: 2, options: options) }
        #expect(throws: Never.self) { try Batch.checkTemplate("../shared/out/{name}.png", inputs: 2, options: options) }
        #expect(Batch.outputEscape("out/../../etc/x.png", template: "out/{name}.png") != nil, "a name bringing in '..'")
        #expect(Batch.outputEscape("out/a/b.png", template: "out/{name}.png") == nil)
        #expect(Batch.outputEscape("../x/a.png", template: "../x/{name}.png") == nil)
    }

    @Test func aMissingSceneOnTheCommandLineIsAUsageError() {
        #expect(throws: BatchError.self) { try Batch.inputs(["/nonexistent/scene.json"]) }
    }
}
