import DaemonCore
import GestureConfig

/// Sends each invocation to the sink of its kind: commands to the process runner,
/// keys, clicks and scrolls to the virtual device, desktop actions to the running
/// desktop. The mapper decides what; the sinks decide how (the dry-run printer takes
/// every kind in their place). `Action.sink` names each kind's sink exhaustively, so
/// a new kind of action is a compile error there, never sent to the keyboard.
public final class ActionRouter: InvocationSink {
    private let commands: InvocationSink
    private let input: InvocationSink
    private let desktop: InvocationSink

    public init(commands: InvocationSink, input: InvocationSink, desktop: InvocationSink) {
        self.commands = commands
        self.input = input
        self.desktop = desktop
    }

    public func submit(_ invocation: Invocation) {
        switch invocation.action.sink {
        case .commands: commands.submit(invocation)
        case .input: input.submit(invocation)
        case .desktop: desktop.submit(invocation)
        }
    }
}
