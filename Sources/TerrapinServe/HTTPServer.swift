// HTTP/1.1 on GNU libmicrohttpd: one thread per connection (keep-alive), each request handed
// to a Swift closure as an HTTPRequest and answered with an HTTPResponse. CTerrapinHTTP owns
// libmicrohttpd's callbacks; this file only copies values across.
import CTerrapinHTTP
#if canImport(Glibc)
import Glibc
#endif

/// One request, copied out of the connection.
public struct HTTPRequest: Sendable {
    public var method: String
    /// Percent-decoded, without the query.
    public var path: String
    /// Query arguments in order (repeated keys kept), percent-decoded.
    public var arguments: [(key: String, value: String)]
    /// The headers the service reads, by lower-case name.
    public var headers: [String: String]
    public var body: [UInt8]
    /// Whether the body was larger than the limit (and so not kept).
    public var bodyTooLarge = false
    public var client = "-"

    /// The headers copied from a connection.
    public static let readHeaders = ["accept", "if-none-match", "user-agent", "x-request-id"]

    public init(method: String, path: String, arguments: [(key: String, value: String)] = [], headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method; self.path = path; self.arguments = arguments; self.headers = headers; self.body = body
    }

    /// The query as it would be written in a URL (for logs).
    public var query: String {
        arguments.map { percentEncode($0.key) + ($0.value.isEmpty ? "" : "=" + percentEncode($0.value)) }.joined(separator: "&")
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status; self.headers = headers; self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

public final class HTTPServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        public var port: UInt16 = 8080
        public var connectionLimit = 512
        public var idleTimeout = 30
        public var bodyLimit = 4 << 20
        /// Request line and headers: room for a long static-map URL (16 KiB of query and more).
        public var connectionMemory = 128 << 10
        public init() {}
    }

    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private var server: OpaquePointer?
    public private(set) var port: UInt16 = 0

    /// Starts listening; requests are answered on their connections' threads from now on.
    public init(_ configuration: Configuration, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(HTTPServerError) {
        self.handler = handler
        var error = [CChar](repeating: 0, count: Int(TP_HTTP_ERROR_SIZE))
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started: OpaquePointer? = configuration.host.withCString { host in
            var config = tp_http_config(host: host, port: configuration.port, connection_limit: UInt32(configuration.connectionLimit),
                                        idle_timeout: UInt32(configuration.idleTimeout), body_limit: configuration.bodyLimit,
                                        connection_memory: configuration.connectionMemory)
            return tp_http_start(&config, { context, exchange in
                let server = Unmanaged<HTTPServer>.fromOpaque(context!).takeUnretainedValue()
                server.answer(exchange!)
            }, context, &error)
        }
        guard let started else { throw HTTPServerError(description: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        server = started
        port = tp_http_port(started)
    }

    /// Requests being read or answered, until their answer is sent.
    public var active: Int { server.map { Int(tp_http_active($0)) } ?? 0 }

    /// Stops accepting connections; open ones are still answered.
    public func quiesce() {
        if let server { tp_http_quiesce(server) }
    }

    /// Closes every connection and waits for their threads.
    public func stop() {
        if let server { tp_http_stop(server) }
        server = nil
    }

    deinit { stop() }

    private func answer(_ exchange: OpaquePointer) {
        var request = HTTPRequest(method: String(cString: tp_http_method(exchange)), path: String(cString: tp_http_path(exchange)))
        let count = tp_http_argument_count(exchange)
        request.arguments.reserveCapacity(count)
        for i in 0..<count {
            request.arguments.append((String(cString: tp_http_argument_key(exchange, i)), String(cString: tp_http_argument_value(exchange, i))))
        }
        for name in HTTPRequest.readHeaders {
            if let value = tp_http_header(exchange, name) { request.headers[name] = String(cString: value) }
        }
        var length = 0, state: Int32 = 0
        if let body = tp_http_body(exchange, &length, &state), length > 0 { request.body = Array(UnsafeBufferPointer(start: body, count: length)) }
        request.bodyTooLarge = state == Int32(TP_HTTP_BODY_TOO_LARGE)
        request.client = String(cString: tp_http_client(exchange))
        var response: HTTPResponse
        if tp_http_arguments_truncated(exchange) != 0 {
            response = HTTPResponse(status: 414, headers: [("Content-Type", "application/json")],
                                    body: Array("{\"error\": \"more than \(TP_HTTP_MAX_ARGUMENTS) query arguments\"}\n".utf8))
        } else if state == Int32(TP_HTTP_BODY_NO_MEMORY) {
            response = HTTPResponse(status: 503, headers: [("Content-Type", "application/json"), ("Retry-After", "1")],
                                    body: Array("{\"error\": \"out of memory reading the request body\"}\n".utf8))
        } else {
            response = handler(request)
        }
        let reply = response.body.withUnsafeBytes { tp_http_response_new($0.baseAddress, $0.count) }
        for header in response.headers { tp_http_response_header(reply, header.name, header.value) }
        _ = tp_http_respond(exchange, UInt32(response.status), reply)
    }
}

/// Percent-encodes everything but unreserved characters (RFC 3986).
func percentEncode(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "|"):
            out.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            let hex = Array("0123456789ABCDEF".utf8)
            out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
        }
    }
    return out
}
