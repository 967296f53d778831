// `#Preview { … }`, as SwiftUI declares it: accepted and expanded to nothing (a headless
// renderer has no canvas to show it in; render the view with `ViewRenderer` or a snapshot test).
@freestanding(declaration)
public macro Preview(_ name: String? = nil, @ViewBuilder body: @escaping @MainActor () -> any View) =
    #externalMacro(module: "TerrapinMacros", type: "PreviewMacro")
