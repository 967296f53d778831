// A style filter's answers kept with the decoded tile layer (FilterAnswers.swift): each feature
// asked once, the same pixels drawn from kept answers, and what is never kept.
import Testing
import TerrapinIO
import TerrapinTestSupport
import TerrapinTiles
@testable import TerrapinBasemap

@Suite struct FilterAnswersTests {
    @Test func eachFeatureIsAskedOnceAndAnsweredAsFirstAsked() {
        var answers = FilterAnswers(count: 130)
        var asked = 0
        for round in 0..<2 {
            for i in 0..<130 {
                let pass = answers.answer(i) { asked += 1; return i % 3 == 0 }
                #expect(pass == (i % 3 == 0), "feature \(i), round \(round)")
            }
        }
        #expect(asked == 130)
        #expect(answers.refused(1) && !answers.refused(0) && !FilterAnswers(count: 4).refused(1))
        // Beyond the count it was made for, every call asks.
        #expect(answers.answer(130) { asked += 1; return true })
        #expect(asked == 131)
    }

    @Test func whatAFilterIsKeptBy() throws {
        let json = """
        {"version": 8, "sources": {"omt": {"type": "vector"}}, "layers": [
          {"id": "plain", "type": "fill", "source": "omt", "source-layer": "landuse", "filter": ["==", ["get", "class"], "residential"]},
          {"id": "zoomed", "type": "fill", "source": "omt", "source-layer": "landuse", "filter": ["all", ["has", "class"], [">=", ["zoom"], 12]]},
          {"id": "state", "type": "fill", "source": "omt", "source-layer": "landuse", "filter": ["==", ["feature-state", "hover"], true]},
          {"id": "none", "type": "fill", "source": "omt", "source-layer": "landuse"}]}
        """
        let a = try BasemapStyle.parse(Array(json.utf8), file: "a.json", directory: ".")
        let b = try BasemapStyle.parse(Array(json.utf8), file: "a.json", directory: ".")
        let memo = a.layers.map(\.filterMemo)
        #expect(memo[0]?.readsZoom == false)
        #expect(memo[1]?.readsZoom == true)
        // A feature's state is the scene's, not the tile's: never kept; no filter, nothing to keep.
        #expect(memo[2] == nil && memo[3] == nil)
        // Each parse of a filter is its own (two styles never share answers).
        #expect(memo[0]?.id != memo[1]?.id)
        #expect(memo[0]?.id != b.layers[0].filterMemo?.id)
    }

    @Test func eachFeaturesBoxIsItsCoordinatesBounds() throws {
        let tiles = try TileSources.open(Repository.fixtures + "/tiles/monaco-omt.pmtiles")
        let bytes = try #require(try tiles.tile(TileID(z: 14, x: 8529, y: 5974)))
        let tile = try VectorTile.decode(bytes, source: "monaco", limits: .init())
        var features = 0
        for layer in tile.layers {
            #expect(layer.boxes.count == layer.features.count)
            for (feature, box) in zip(layer.features, layer.boxes) {
                let xs = stride(from: 0, to: feature.coordinates.count, by: 2).map { feature.coordinates[$0] }
                let ys = stride(from: 1, to: feature.coordinates.count, by: 2).map { feature.coordinates[$0] }
                if xs.isEmpty { #expect(box.x > box.z); continue }
                #expect(box == SIMD4(xs.min()!, ys.min()!, xs.max()!, ys.max()!))
                features += 1
            }
        }
        #expect(features > 100)
        // Beyond a canvas's side by more than the margin, or not.
        let box = SIMD4<Int32>(0, 0, 100, 100)
        #expect(Basemap.whollyOutside(box, (1, 200, 0), width: 100, height: 100, margin: 64))
        #expect(!Basemap.whollyOutside(box, (1, 150, 0), width: 100, height: 100, margin: 64))
        #expect(!Basemap.whollyOutside(SIMD4(.max, .max, .min, .min), (1, 1e9, 0), width: 100, height: 100, margin: 0))
    }

    @Test func aLayerKeepsAtMostMaxFiltersAnswers() {
        let store = FilterAnswers.Store()
        for k in 0..<FilterAnswers.maxFilters { store.keep(FilterAnswers(count: 4), for: .init(filter: k, zoom: 0)) }
        #expect(store.count == FilterAnswers.maxFilters)
        // Again under a kept key: still kept, nothing forgotten.
        store.keep(store.take(.init(filter: 3, zoom: 0), count: 4), for: .init(filter: 3, zoom: 0))
        #expect(store.count == FilterAnswers.maxFilters)
        // One more: all forgotten, the new one kept.
        store.keep(FilterAnswers(count: 4), for: .init(filter: -1, zoom: 0))
        #expect(store.count == 1)
    }

    @Test func aTileDrawnAgainFromKeptAnswersIsTheSamePixels() throws {
        let json = """
        {"version": 8, "sources": {"omt": {"type": "vector"}}, "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "#eee"}},
          {"id": "residential", "type": "fill", "source": "omt", "source-layer": "landuse", "filter": ["==", ["get", "class"], "residential"], "paint": {"fill-color": "#c88"}},
          {"id": "water", "type": "fill", "source": "omt", "source-layer": "water", "filter": ["!=", ["get", "class"], "swimming_pool"], "paint": {"fill-color": "#58c"}},
          {"id": "minor", "type": "line", "source": "omt", "source-layer": "transportation", "filter": ["all", ["==", ["geometry-type"], "LineString"], ["match", ["get", "class"], ["minor", "service"], true, false]], "paint": {"line-color": "#fff", "line-width": 2}},
          {"id": "major", "type": "line", "source": "omt", "source-layer": "transportation", "filter": ["all", [">=", ["zoom"], 10], ["match", ["get", "class"], ["primary", "secondary", "tertiary"], true, false]], "paint": {"line-color": "#fa4", "line-width": 4}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "filters.json", directory: ".")
        let open = { () throws -> Basemap in
            try Basemap(style: style, tiles: try TileSources.open(Repository.fixtures + "/tiles/monaco-omt.pmtiles")) { try TileSources.open($0) }
        }
        let basemap = try open()
        let id = TileID(z: 14, x: 8529, y: 5974)
        let first = try #require(try basemap.draw(id))
        // The answers are now kept with the decoded layers…
        let tile = try #require(basemap.vectorTile("omt", id))
        #expect(try #require(tile.layer("transportation")).filterAnswers.count == 2)
        #expect(try #require(tile.layer("landuse")).filterAnswers.count == 1)
        // …and drawing again from them gives what a basemap asking afresh draws.
        let again = try #require(try basemap.draw(id))
        let fresh = try #require(try open().draw(id))
        #expect(again.data == first.data)
        #expect(fresh.data == first.data)
        #expect(Set(first.data).count > 3, "the tile draws its features")
    }
}

@Suite struct LayerPropertiesTests {
    @Test func constantsOnceAndFeaturePropertiesPerFeature() throws {
        let json = """
        {"version": 8, "sources": {"omt": {"type": "vector"}}, "layers": [
          {"id": "roads", "type": "line", "source": "omt", "source-layer": "transportation",
           "paint": {"line-width": ["interpolate", ["linear"], ["zoom"], 10, 1, 16, 8], "line-color": ["match", ["get", "class"], "primary", "#f00", "#00f"],
                     "line-opacity": 0.5}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "p.json", directory: ".")
        let layer = style.layers[0]
        let tiles = try TileSources.open(Repository.fixtures + "/tiles/monaco-omt.pmtiles")
        let tile = try VectorTile.decode(try #require(try tiles.tile(TileID(z: 14, x: 8529, y: 5974))), source: "monaco")
        let data = try #require(tile.layer("transportation"))
        let props = LayerProperties(layer, EvaluationContext(zoom: 13, layer: data))
        func slot(_ name: LayerProperties.Name) -> String {
            switch props.slot(name) { case .absent: "absent"; case .constant: "constant"; case .perFeature: "per feature" }
        }
        #expect(slot(.lineWidth) == "constant" && slot(.lineOpacity) == "constant")
        #expect(slot(.lineColor) == "per feature")
        #expect(slot(.lineBlur) == "absent" && !props.has(.lineBlur) && props.has(.lineWidth))
        // Each value what evaluating the layer's expression for the feature gives.
        var colours = Set<String>()
        for feature in data.features {
            let c = EvaluationContext(zoom: 13, layer: data, feature: feature)
            for name in [LayerProperties.Name.lineWidth, .lineColor, .lineOpacity, .lineBlur] {
                #expect(props.value(name, c) == layer.property(name.key)?.evaluate(c))
            }
            colours.insert("\(props.value(.lineColor, c)!)")
        }
        #expect(colours.count == 2)
        #expect(props.number(.lineWidth, EvaluationContext(zoom: 13), default: 0) == 4.5)
    }
}
