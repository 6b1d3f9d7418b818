/// Sends each invocation to the sink of its kind: commands to the process runner,
/// keys, clicks and scrolls to the virtual device. The mapper decides what; the
/// sinks decide how (the dry-run printer takes both kinds in their place).
public final class ActionRouter: InvocationSink {
    private let commands: InvocationSink
    private let input: InvocationSink

    public init(commands: InvocationSink, input: InvocationSink) {
        self.commands = commands
        self.input = input
    }

    public func submit(_ invocation: Invocation) {
        (invocation.action.isInput ? input : commands).submit(invocation)
    }
}
