/// A key press, decoded from the bytes a terminal sends in raw mode.
enum Key: Equatable, Sendable {
    case character(Character)
    case enter
    case tab
    case backTab
    case backspace
    case delete
    case escape
    case up, down, left, right
    case home, end, pageUp, pageDown
    /// Ctrl with a letter (`ctrl("c")` is Ctrl-C).
    case ctrl(Character)
    case function(Int)
}
