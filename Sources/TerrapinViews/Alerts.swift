// Alerts, as iOS draws them while presented: the view dimmed, and a 270-pt card in its middle —
// the title (semibold 17), the message (13), and the buttons under a hairline, side by side
// when there are two (cancel in semibold, destructive in red). A tap on a button runs its action
// and dismisses the alert. Both SwiftUI forms: `.alert(isPresented:) { Alert(…) }` and
// `.alert(_:isPresented:actions:message:)`. Confirmation dialogs likewise, as an iPhone's
// action sheet at the view's foot.

/// SwiftUI's `Alert` (the iOS 13 form).
public struct Alert {
    let title: Text
    let message: Text?
    let buttons: [Button]

    public init(title: Text, message: Text? = nil, dismissButton: Button? = nil) {
        self.title = title
        self.message = message
        buttons = [dismissButton ?? .default(Text("OK"))]
    }

    public init(title: Text, message: Text? = nil, primaryButton: Button, secondaryButton: Button) {
        self.title = title
        self.message = message
        buttons = [primaryButton, secondaryButton]
    }

    public struct Button {
        enum Kind { case normal, cancel, destructive }
        let label: Text
        let kind: Kind
        let action: (() -> Void)?

        public static func `default`(_ label: Text, action: (() -> Void)? = {}) -> Button { Button(label: label, kind: .normal, action: action) }
        public static func cancel(_ label: Text, action: (() -> Void)? = {}) -> Button { Button(label: label, kind: .cancel, action: action) }
        public static func cancel(_ action: (() -> Void)? = {}) -> Button { Button(label: Text("Cancel"), kind: .cancel, action: action) }
        public static func destructive(_ label: Text, action: (() -> Void)? = {}) -> Button { Button(label: label, kind: .destructive, action: action) }

        /// As a `Button` view, which alerts and dialogs lay out alike (`DialogAction`).
        var view: TerrapinViews.Button<Text> {
            TerrapinViews.Button(role: kind == .destructive ? .destructive : kind == .cancel ? .cancel : nil, action: action ?? {}) { label }
        }
    }
}

/// The alert's card over the dimmed view.
struct AlertCard<Actions: View, Message: View>: View {
    let title: Text
    let message: Message?
    let actions: Actions

    var body: some View {
        ZStack {
            Color(white: 0, opacity: 0.2)
            VStack(spacing: 0) {
                VStack(spacing: 4) {
                    title.font(.system(size: 17, weight: .semibold)).multilineTextAlignment(.center)
                    if let message { message.font(.system(size: 13)).multilineTextAlignment(.center) }
                }
                .padding(.horizontal, 16).padding(.top, 19).padding(.bottom, 17)
                .frame(maxWidth: .infinity)
                Rectangle().fill(Color.hairline).frame(height: 0.5)
                actions.frame(maxWidth: .infinity, minHeight: 44)
            }
            .frame(width: 270)
            .foregroundStyle(Color.black)
            .background(Color(white: 0.95), in: RoundedRectangle(cornerRadius: 14))
        }
    }
}

/// One action of an alert or dialog: a `Button` is drawn as the system draws its buttons (blue,
/// red when destructive, semibold to cancel) and a tap runs its action and dismisses; any other
/// view is drawn as it is.
struct DialogAction: View {
    let element: any View
    let size: Double
    let height: Double
    let dismiss: () -> Void

    var body: some View {
        if let button = element as? ButtonParts {
            let color: Color = button.partsRole == .destructive ? .red : .blue
            let action = button.partsAction, dismiss = self.dismiss
            button.partsLabel.font(.system(size: size, weight: button.partsRole == .cancel ? .semibold : .regular)).foregroundStyle(color)
                .frame(maxWidth: .infinity, minHeight: height).contentShape(Rectangle())
                .onTapGesture { action(); dismiss() }
        } else {
            AnyView(element).font(.system(size: size)).frame(maxWidth: .infinity, minHeight: height)
        }
    }
}

/// The `actions` of an alert, each a button of its own: side by side when two (or one), one under
/// another when more, with hairlines between, as iOS lays them out.
struct AlertActionRows: View {
    let items: [any View]
    let dismiss: () -> Void

    var body: some View {
        if items.count <= 2 {
            HStack(spacing: 0) {
                ForEach(0..<items.count, id: \.self) { i in
                    if i > 0 { Rectangle().fill(Color.hairline).frame(width: 0.5, height: 44) }
                    DialogAction(element: items[i], size: 17, height: 44, dismiss: dismiss)
                }
            }
        } else {
            VStack(spacing: 0) {
                ForEach(0..<items.count, id: \.self) { i in
                    if i > 0 { Rectangle().fill(Color.hairline).frame(height: 0.5) }
                    DialogAction(element: items[i], size: 17, height: 44, dismiss: dismiss)
                }
            }
        }
    }
}

/// A confirmation dialog as iPhones draw it: the view dimmed, and at its foot a card of actions
/// (the title and message above them when shown, 57-pt rows in 20-pt type) and, apart, the cancel
/// button (the dialog's own cancel action, else "Cancel").
struct ConfirmationSheet<Message: View>: View {
    let title: Text?
    let message: Message?
    let items: [any View]
    let dismiss: () -> Void

    var body: some View {
        let cancel = items.firstIndex { ($0 as? ButtonParts)?.partsRole == .cancel }
        let rows = items.enumerated().filter { $0.offset != cancel }.map(\.element)
        return ZStack(alignment: .bottom) {
            Color(white: 0, opacity: 0.2)
            VStack(spacing: 8) {
                VStack(spacing: 0) {
                    if title != nil || message != nil {
                        VStack(spacing: 4) {
                            if let title { title.font(.system(size: 13, weight: .semibold)) }
                            if let message { message.font(.system(size: 13)) }
                        }
                        .foregroundStyle(Color(red: 0.54, green: 0.54, blue: 0.56)).multilineTextAlignment(.center)
                        .padding(.horizontal, 16).padding(.vertical, 14).frame(maxWidth: .infinity)
                        if !rows.isEmpty { Rectangle().fill(Color.hairline).frame(height: 0.5) }
                    }
                    ForEach(0..<rows.count, id: \.self) { i in
                        if i > 0 { Rectangle().fill(Color.hairline).frame(height: 0.5) }
                        DialogAction(element: rows[i], size: 20, height: 57, dismiss: dismiss)
                    }
                }
                .background(Color(white: 0.95), in: RoundedRectangle(cornerRadius: 14))
                DialogAction(element: cancel.map { items[$0] } ?? Button("Cancel", role: .cancel) {}, size: 20, height: 57, dismiss: dismiss)
                    .background(Color.white, in: RoundedRectangle(cornerRadius: 14))
            }
            .padding(.horizontal, 8).padding(.bottom, 8)
        }
    }
}

extension Color {
    /// iOS's separator between rows and buttons (#3C3C43 at 29 %, over white).
    static let hairline = Color(white: 0.24, opacity: 0.29)
}

/// Whether a dialog's title is shown.
public enum Visibility: Sendable, Equatable {
    /// Shown when the dialog has a message (iPhones hide a lone title).
    case automatic
    case visible
    case hidden
}

extension View {
    /// An alert drawn over this view while `isPresented` is true (SwiftUI's iOS 13 form).
    public func alert(isPresented: Binding<Bool>, content: () -> Alert) -> some View {
        let alert = content()
        return overlay(Group {
            if isPresented.wrappedValue {
                AlertCard(title: alert.title, message: alert.message,
                          actions: AlertActionRows(items: alert.buttons.map(\.view), dismiss: { isPresented.wrappedValue = false }))
            }
        })
    }

    /// An alert with `actions` (its buttons: "OK" when none) and a `message`, drawn over this view
    /// while `isPresented` is true.
    public func alert<Actions: View, Message: View>(_ title: String, isPresented: Binding<Bool>, @ViewBuilder actions: () -> Actions,
                                                   @ViewBuilder message: () -> Message) -> some View {
        let actions = actions(), message = message()
        return overlay(Group {
            if isPresented.wrappedValue {
                if Actions.self == EmptyView.self {
                    AlertCard(title: Text(title), message: message, actions: AlertActionRows(items: [Alert.Button.default(Text("OK")).view], dismiss: { isPresented.wrappedValue = false }))
                } else {
                    AlertCard(title: Text(title), message: message, actions: AlertActionRows(items: viewElements(actions), dismiss: { isPresented.wrappedValue = false }))
                }
            }
        })
    }

    /// A confirmation dialog over this view while `isPresented` is true: its `actions` (buttons)
    /// at the foot, the title above them when `titleVisibility` shows it, with `message`.
    public func confirmationDialog<Actions: View, Message: View>(_ title: String, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic,
                                                                @ViewBuilder actions: () -> Actions, @ViewBuilder message: () -> Message) -> some View {
        let items = viewElements(actions()), message = message()
        let hasMessage = !(Message.self == EmptyView.self)
        let showsTitle = titleVisibility == .visible || (titleVisibility == .automatic && hasMessage)
        return overlay(Group {
            if isPresented.wrappedValue {
                ConfirmationSheet(title: showsTitle ? Text(title) : nil, message: hasMessage ? message : nil, items: items,
                                  dismiss: { isPresented.wrappedValue = false })
            }
        })
    }

    /// A confirmation dialog with `actions` and no message.
    public func confirmationDialog<Actions: View>(_ title: String, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic,
                                                 @ViewBuilder actions: () -> Actions) -> some View {
        confirmationDialog(title, isPresented: isPresented, titleVisibility: titleVisibility, actions: actions, message: { EmptyView() })
    }

    /// An alert with `actions` and no message.
    public func alert<Actions: View>(_ title: String, isPresented: Binding<Bool>, @ViewBuilder actions: () -> Actions) -> some View {
        alert(title, isPresented: isPresented, actions: actions, message: { EmptyView() })
    }
}
