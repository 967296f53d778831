// CTerrapinSVG loads librsvg when the first SVG is opened and declares the few functions and
// types it uses itself (rsvg_declarations.h). These must be librsvg's, cairo's and GLib's own:
// compiled after their headers, each prototype must agree with the library's declaration, and
// each struct's layout and each constant with the library's (the header's static assertions).
import Foundation
import Testing
import TerrapinTestSupport

@Suite struct SVGDeclarationTests {
    static let declarations = Repository.root + "/Sources/CTerrapinSVG/rsvg_declarations.h"

    /// Compiles `source` (C, syntax only) with librsvg's flags; the compiler's status and output.
    static func compile(_ source: String) throws -> (status: Int32, output: String) {
        let dir = NSTemporaryDirectory() + "terrapin-svg-declarations-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try source.write(toFile: dir + "/check.c", atomically: true, encoding: .utf8)
        return try ExternalTool.run("/bin/sh", ["-c", "cc -std=c11 -fsyntax-only $(pkg-config --cflags librsvg-2.0) '\(dir)/check.c'"])
    }

    static func checked(_ declarations: String) -> String {
        "#include <librsvg/rsvg.h>\n#include <cairo.h>\n#define TERRAPIN_SVG_CHECK\n" + declarations
    }

    @Test func theDeclarationsAreTheLibrariesOwn() throws {
        let text = try String(contentsOfFile: Self.declarations, encoding: .utf8)
        let result = try Self.compile(Self.checked(text))
        #expect(result.status == 0, "rsvg_declarations.h disagrees with librsvg's or cairo's headers:\n\(result.output)")
    }

    /// The check can fail: a prototype, a field or a constant changed is a compile error.
    @Test(arguments: [
        ("gboolean rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);",
         "gboolean rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, RsvgRectangle viewport, GError **error);"),
        ("#define TP_GERROR_FIELDS uint32_t domain; int code; char *message;", "#define TP_GERROR_FIELDS uint32_t domain; char *message; int code;"),
        ("#define TP_CAIRO_FORMAT_ARGB32 0", "#define TP_CAIRO_FORMAT_ARGB32 1"),
    ])
    func aWrongDeclarationFails(right: String, wrong: String) throws {
        let text = try String(contentsOfFile: Self.declarations, encoding: .utf8)
        #expect(text.contains(right))
        let result = try Self.compile(Self.checked(text.replacingOccurrences(of: right, with: wrong)))
        #expect(result.status != 0, "a wrong declaration compiled")
    }
}
