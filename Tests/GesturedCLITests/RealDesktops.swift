import Testing

/// The suites that start a real desktop (sway headless, Xvfb with i3 or openbox, GNOME
/// Shell), one test at a time: each desktop's start-up is seconds of CPU, and several at
/// once on two busy cores starved one another and the tests beside them past their
/// bounded waits (openbox had not set its desktops after 30 s in CI).
@Suite(.serialized) enum RealDesktops {}
