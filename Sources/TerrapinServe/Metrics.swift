// The service's counters, printed in the Prometheus text exposition format (version 0.0.4) at
// /metrics: requests by route and status, request latency and render time as histograms, cache
// hits and misses, what is in flight, and the process's memory.
import TerrapinIO
import TerrapinNet
#if canImport(Glibc)
import Glibc
#endif

final class Metrics: Sendable {
    /// Upper bounds (seconds) of the latency and render-time histogram buckets.
    static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    struct Histogram {
        var counts = [Int](repeating: 0, count: Metrics.buckets.count)
        var sum = 0.0
        var count = 0

        mutating func observe(_ seconds: Double) {
            for (i, bound) in Metrics.buckets.enumerated() where seconds <= bound { counts[i] += 1 }
            sum += seconds
            count += 1
        }
    }

    struct State {
        var requests: [String: [Int: Int]] = [:]   // route → status → count
        var latency: [String: Histogram] = [:]     // route → request seconds
        var render = Histogram()
        var cacheHits = 0, cacheMisses = 0, notModified = 0
        var rejected: [String: Int] = [:]          // reason → count
        var stopped = 0                            // renders stopped after their deadline
        var workersLost: [String: Int] = [:]       // reason → worker processes replaced
        var inFlight = 0
    }

    private let state = Locked(State())

    func begin() { state.withLock { $0.inFlight += 1 } }

    func end(route: String, status: Int, seconds: Double) {
        state.withLock { s in
            s.inFlight -= 1
            s.requests[route, default: [:]][status, default: 0] += 1
            s.latency[route, default: Histogram()].observe(seconds)
        }
    }

    var inFlight: Int { state.withLock { $0.inFlight } }

    func rendered(seconds: Double) { state.withLock { $0.render.observe(seconds) } }
    func cache(hit: Bool) { state.withLock { if hit { $0.cacheHits += 1 } else { $0.cacheMisses += 1 } } }
    func rejected(_ reason: String) { state.withLock { $0.rejected[reason, default: 0] += 1 } }
    func stopped() { state.withLock { $0.stopped += 1 } }
    func workerLost(_ reason: String) { state.withLock { $0.workersLost[reason, default: 0] += 1 } }

    /// The exposition text; `load` is the render pool's now, `cacheBytes` the cache's size.
    func text(load: (running: Int, queued: Int), workers: Int, cacheBytes: Int?, ready: Bool) -> String {
        let s = state.withLock { $0 }
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) { out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n" }
        /// A family of one unlabelled sample.
        func single(_ name: String, _ type: String, _ help: String, _ value: Int) {
            family(name, type, help)
            out += "\(name) \(value)\n"
        }
        func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
        func histogram(_ name: String, _ labels: String, _ h: Histogram) {
            let sep = labels.isEmpty ? "" : ","
            for (i, bound) in Self.buckets.enumerated() { out += "\(name)_bucket{\(labels)\(sep)le=\"\(number(bound))\"} \(h.counts[i])\n" }
            out += "\(name)_bucket{\(labels)\(sep)le=\"+Inf\"} \(h.count)\n"
            let braces = labels.isEmpty ? "" : "{\(labels)}"
            out += "\(name)_sum\(braces) \(h.sum)\n\(name)_count\(braces) \(h.count)\n"
        }
        family("terrapin_http_requests_total", "counter", "HTTP requests answered, by route and status code.")
        for route in s.requests.keys.sorted() {
            for status in s.requests[route]!.keys.sorted() {
                out += "terrapin_http_requests_total{route=\"\(route)\",code=\"\(status)\"} \(s.requests[route]![status]!)\n"
            }
        }
        family("terrapin_http_request_duration_seconds", "histogram", "Time from a request's arrival to its answer, by route.")
        for route in s.latency.keys.sorted() { histogram("terrapin_http_request_duration_seconds", "route=\"\(route)\"", s.latency[route]!) }
        family("terrapin_render_duration_seconds", "histogram", "Time a worker spent rendering and encoding one image.")
        histogram("terrapin_render_duration_seconds", "", s.render)
        single("terrapin_cache_hits_total", "counter", "Images answered from the on-disk cache.", s.cacheHits)
        single("terrapin_cache_misses_total", "counter", "Images looked up in the on-disk cache and rendered.", s.cacheMisses)
        if let cacheBytes {
            single("terrapin_cache_bytes", "gauge", "Bytes in the on-disk cache (as this process last counted).", cacheBytes)
        }
        family("terrapin_rejected_total", "counter", "Renders refused: saturated (503), timeout (503), budget (422).")
        for reason in ["budget", "saturated", "timeout"] { out += "terrapin_rejected_total{reason=\"\(reason)\"} \(s.rejected[reason] ?? 0)\n" }
        single("terrapin_renders_stopped_total", "counter", "Renders stopped on a worker after their request timed out (503).", s.stopped)
        single("terrapin_http_requests_in_flight", "gauge", "Requests being answered now.", s.inFlight)
        single("terrapin_renders_running", "gauge", "Renders on a worker now.", load.running)
        single("terrapin_renders_queued", "gauge", "Renders waiting for a worker.", load.queued)
        single("terrapin_render_workers", "gauge", "Render worker threads.", workers)
        family("terrapin_worker_processes_replaced_total", "counter",
               "Render worker processes lost and replaced: died (a crash or its memory limit, 500), cpu (its CPU time limit, 503), stopped (at a deadline, 503), broken.")
        for reason in ["broken", "cpu", "died", "stopped"] { out += "terrapin_worker_processes_replaced_total{reason=\"\(reason)\"} \(s.workersLost[reason] ?? 0)\n" }
        single("terrapin_ready", "gauge", "1 when /readyz answers 200.", ready ? 1 : 0)
        // Remote sources (tiles, styles, files read by URL), through the process's HTTP client.
        let downloads = HTTPClient.shared.counters
        single("terrapin_downloads_total", "counter", "Transfers made for remote sources (each retry and redirect counts).", downloads.requests)
        single("terrapin_download_bytes_total", "counter", "Body bytes received for remote sources.", downloads.bytes)
        single("terrapin_download_cache_hits_total", "counter", "Remote reads answered by the download cache without a transfer.", downloads.cacheHits)
        single("terrapin_download_revalidations_total", "counter", "Download cache entries kept after the server answered 304.", downloads.revalidated)
        single("terrapin_download_retries_total", "counter", "Transfers retried after a connection failure, a cut body, 5xx or 429.", downloads.retries)
        let memory = Self.memory()
        single("process_resident_memory_bytes", "gauge", "Resident memory now.", memory.resident)
        single("terrapin_process_peak_resident_memory_bytes", "gauge", "Largest resident memory since the process started.", memory.peak)
        return out
    }

    /// VmRSS and VmHWM of /proc/self/status, in bytes.
    static func memory() -> (resident: Int, peak: Int) {
        guard let bytes = try? FileIO.readKernelFile("/proc/self/status", limit: 1 << 16) else { return (0, 0) }
        var resident = 0, peak = 0
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            // "VmRSS:\t  1736 kB": a tab after the name, then spaces.
            let parts = line.split(omittingEmptySubsequences: true, whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count >= 2, let kib = Int(parts[1]) else { continue }
            if parts[0] == "VmRSS:" { resident = kib * 1024 }
            if parts[0] == "VmHWM:" { peak = kib * 1024 }
        }
        return (resident, peak)
    }
}
