// Errors from finding and loading fonts: what, which font, and what to install.
public enum TypographyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No installed font has this family name.
    case unknownFamily(String, closest: String, package: String?)
    /// A font file could not be read or is not a font FreeType understands.
    case unreadableFont(path: String, reason: String)
    /// fontconfig finds no font at all: the machine, not the scene, lacks what text needs.
    case noFonts

    public var description: String {
        switch self {
        case .unknownFamily(let family, let closest, let package):
            let install = package.map { "install the Debian package \($0)" } ?? "install a package that provides it (apt-cache search fonts-)"
            return "font family '\(family)' is not installed (the closest match is '\(closest)'); \(install), or name an installed family (fc-list : family)"
        case .unreadableFont(let path, let reason):
            return "cannot load the font file '\(path)': \(reason); check that it is a TrueType/OpenType font"
        case .noFonts:
            return "no fonts are installed (fontconfig finds none); install fonts-dejavu-core (`make setup` does), or check FONTCONFIG_FILE"
        }
    }

    /// Debian packages that provide well-known families.
    static func package(for family: String) -> String? {
        let f = family.lowercased()
        let table: [(String, String)] = [
            ("dejavu", "fonts-dejavu-core"), ("noto sans cjk", "fonts-noto-cjk"), ("noto serif cjk", "fonts-noto-cjk"),
            ("noto color emoji", "fonts-noto-color-emoji"), ("noto", "fonts-noto-core"), ("ipagothic", "fonts-ipafont-gothic"),
            ("ipapgothic", "fonts-ipafont-gothic"), ("ipamincho", "fonts-ipafont-mincho"), ("liberation", "fonts-liberation"),
            ("roboto", "fonts-roboto"), ("open sans", "fonts-open-sans"), ("lato", "fonts-lato"), ("ubuntu", "fonts-ubuntu"),
            ("freesans", "fonts-freefont-ttf"), ("freeserif", "fonts-freefont-ttf"), ("droid", "fonts-droid-fallback"),
        ]
        return table.first { f.hasPrefix($0.0) }?.1
    }
}
