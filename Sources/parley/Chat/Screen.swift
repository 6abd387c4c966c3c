/// Draws whole frames, rewriting only the lines that changed since the last frame (no
/// flicker, little output over slow links).
final class Screen {
    private let terminal: Terminal
    /// Colours on, unless `NO_COLOR` is set (or the terminal is dumb).
    let colors: Bool
    private var previous: [String] = []
    private var previousSize = (columns: 0, rows: 0)

    init(terminal: Terminal, colors: Bool) {
        self.terminal = terminal
        self.colors = colors
    }

    /// Forgets what is on screen (after a resize), so the next frame redraws everything.
    func invalidate() {
        previous = []
    }

    /// Draws `lines` (one per row, already fitted to the width) and puts the cursor at
    /// `cursor` (row, column; zero-based), or hides it.
    func draw(_ lines: [Line], size: (columns: Int, rows: Int), cursor: (row: Int, column: Int)?) {
        var output = ""
        if size != previousSize {
            previous = []
            previousSize = size
            output += "\u{1B}[0m\u{1B}[2J"
        }
        for (row, line) in lines.prefix(size.rows).enumerated() {
            let text = line.rendered(colors: colors)
            if row < previous.count, previous[row] == text { continue }
            output += "\u{1B}[\(row + 1);1H" + text + "\u{1B}[K"
        }
        previous = lines.prefix(size.rows).map { $0.rendered(colors: colors) }
        if let cursor {
            output += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H\u{1B}[?25h"
        } else {
            output += "\u{1B}[?25l"
        }
        terminal.write(output)
    }
}
