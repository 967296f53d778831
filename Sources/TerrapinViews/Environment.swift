// Values that flow down the view tree: font, foreground style, text options.
import Foundation
import TerrapinRaster
import TerrapinTypography

public struct EnvironmentValues {
    /// Default `.body`.
    public var font: Font? = nil
    public var fontWeight: Font.Weight? = nil
    public var italic = false
    /// Default: the primary label colour (black in light mode).
    public var foregroundColor: Color? = nil
    public var lineLimit: Int? = nil
    public var multilineTextAlignment: TextAlignment = .leading
    public var minimumScaleFactor: Double = 1
    /// The language of the text, which picks regional glyph forms (Han in Japanese, Chinese or
    /// Korean style) and HarfBuzz's language. Default nil: inferred from the text itself.
    public var locale: Locale? = nil
    /// The size of `Image(systemName:)` symbols relative to the font. Default `.medium`.
    public var imageScale: Image.Scale = .medium
    /// Seconds from the scene's start at which the view is drawn (animations). Default 0.
    public var time: Double = 0
    /// The animation of the innermost `.animation(_:value:)` whose value changed.
    var animation: Animation? = nil
    /// Set while a view whose state changed is built twice (see Animation.swift).
    var animationPass: AnimationPass? = nil
    /// The triggers of the innermost stateful view being built, and of those around it.
    var triggerLog: TriggerLog? = nil
    /// Set during a probe build (see Triggers.swift).
    var triggerProbe: TriggerProbe? = nil
    /// How `Picker`s are drawn. Default `.menu`.
    var pickerStyle: PickerStyle.Kind = .menu
    /// How `Button`s and `Toggle`s are drawn, and their accent colour (nil: the system blue).
    var buttonStyle: ButtonStyle.Kind = .automatic
    var toggleStyle: ToggleStyle.Kind = .automatic
    var tint: Color? = nil
    /// The navigation container around (`NavigationLink`s push onto it).
    var navigation: NavigationPath? = nil
    /// Set while a `Picker`'s options are made: a `ForEach` tags each with its id.
    var tagsOptions = false
    /// The `onAppear` actions of the innermost stateful view being built.
    var appearance: AppearanceScope? = nil
    /// The models `.environmentObject(_:)` put here (Observation.swift).
    var objects: EnvironmentObjects? = nil
    /// The body being built, whose stateful views keep their state across builds (Identity.swift).
    var nestedStates: NestedStateScope? = nil

    public init() {}

    /// What a view's `@Environment` properties keep of the environment it was built in: all a
    /// reader can see, without what only the build uses (its state scopes, triggers and animation
    /// pass). Those hold the boxes of the views around it, and a view kept in one of them (a
    /// pushed screen in its navigation stack's state) would keep them alive for ever.
    var keptForHandlers: EnvironmentValues {
        var kept = self
        kept.animationPass = nil
        kept.triggerLog = nil
        kept.triggerProbe = nil
        kept.appearance = nil
        kept.nestedStates = nil
        return kept
    }

    var resolvedFont: FontSpec {
        var spec = (font ?? .body).spec
        if let fontWeight { spec.request.weight = fontWeight }
        if italic { spec.request.italic = true }
        if let locale { spec.request.language = locale.identifier }
        return spec
    }
}
