// Timing helpers: median, min and max over repeated runs after a warm-up.
#if canImport(Glibc)
import Glibc
#endif

struct Timing {
    let name: String
    let samples: [Double]  // milliseconds
    var median: Double { let s = samples.sorted(); return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2 }
    var min: Double { samples.min()! }
    var max: Double { samples.max()! }
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
}

func measure(_ name: String, runs: Int = 7, _ body: () throws -> Void) rethrows -> Timing {
    try body()  // warm-up
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = now()
        try body()
        samples.append(now() - start)
    }
    return Timing(name: name, samples: samples)
}

func format(_ value: Double, _ decimals: Int = 2) -> String {
    if decimals == 0 { return String(Int(value.rounded())) }
    var text = String(Int((value * pow(10, Double(decimals))).rounded()))
    while text.count <= decimals { text = "0" + text }
    text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
    return text
}

func row(_ cells: [String], widths: [Int]) -> String {
    zip(cells, widths).map { cell, width in cell.count >= width ? cell : cell + String(repeating: " ", count: width - cell.count) }.joined(separator: "  ")
}
