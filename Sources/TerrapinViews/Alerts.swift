// Alerts, as iOS draws them while presented: the view dimmed, and a 270-pt card in its middle —
// the title (semibold 17), the message (13), and the buttons under a hairline, side by side
// when there are two (cancel in semibold, destructive in red). A tap on a button runs its action
// and dismisses the alert. Both SwiftUI forms: `.alert(isPresented:) { Alert(…) }` and
// `.alert(_:isPresented:actions:message:)`.

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
                Rectangle().fill(Color(white: 0.24, opacity: 0.29)).frame(height: 0.5)
                actions.frame(maxWidth: .infinity, minHeight: 44)
            }
            .frame(width: 270)
            .foregroundStyle(Color.black)
            .background(Color(white: 0.95), in: RoundedRectangle(cornerRadius: 14))
        }
    }
}

/// One button of an `Alert`: its label in the accent blue (semibold to cancel, red to destroy).
struct AlertButtonView: View {
    let button: Alert.Button
    let dismiss: () -> Void

    var body: some View {
        let color: Color = button.kind == .destructive ? .red : .blue
        let label = button.label.font(.system(size: 17, weight: button.kind == .cancel ? .semibold : .regular)).foregroundStyle(color)
        return label.frame(maxWidth: .infinity, minHeight: 44).contentShape(Rectangle()).onTapGesture {
            button.action?()
            dismiss()
        }
    }
}

/// The buttons of an `Alert`: one across, or two side by side with a hairline between.
struct AlertButtons: View {
    let buttons: [Alert.Button]
    let dismiss: () -> Void

    var body: some View {
        HStack(spacing: 0) {
            ForEach(0..<buttons.count, id: \.self) { i in
                if i > 0 { Rectangle().fill(Color(white: 0.24, opacity: 0.29)).frame(width: 0.5, height: 44) }
                AlertButtonView(button: buttons[i], dismiss: dismiss)
            }
        }
    }
}

/// The `actions` of an alert, each a button of its own: side by side when two (or one), one under
/// another when more, with hairlines between, as iOS lays them out.
struct AlertActionRows: View {
    let items: [AnyView]

    var body: some View {
        if items.count <= 2 {
            HStack(spacing: 0) {
                ForEach(0..<items.count, id: \.self) { i in
                    if i > 0 { Rectangle().fill(Color(white: 0.24, opacity: 0.29)).frame(width: 0.5, height: 44) }
                    items[i].font(.system(size: 17)).frame(maxWidth: .infinity, minHeight: 44)
                }
            }
        } else {
            VStack(spacing: 0) {
                ForEach(0..<items.count, id: \.self) { i in
                    if i > 0 { Rectangle().fill(Color(white: 0.24, opacity: 0.29)).frame(height: 0.5) }
                    items[i].font(.system(size: 17)).frame(maxWidth: .infinity, minHeight: 44)
                }
            }
        }
    }
}

extension View {
    /// An alert drawn over this view while `isPresented` is true (SwiftUI's iOS 13 form).
    public func alert(isPresented: Binding<Bool>, content: () -> Alert) -> some View {
        let alert = content()
        return overlay(Group {
            if isPresented.wrappedValue {
                AlertCard(title: alert.title, message: alert.message,
                          actions: AlertButtons(buttons: alert.buttons, dismiss: { isPresented.wrappedValue = false }))
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
                    AlertCard(title: Text(title), message: message, actions: AlertButtons(buttons: [.default(Text("OK"))], dismiss: { isPresented.wrappedValue = false }))
                } else {
                    AlertCard(title: Text(title), message: message, actions: AlertActionRows(items: viewElements(actions)))
                }
            }
        })
    }

    /// An alert with `actions` and no message.
    public func alert<Actions: View>(_ title: String, isPresented: Binding<Bool>, @ViewBuilder actions: () -> Actions) -> some View {
        alert(title, isPresented: isPresented, actions: actions, message: { EmptyView() })
    }
}
