/// One screen line: styled pieces of text, measured in terminal columns.
struct Line: Equatable, Sendable {
    /// A run of text in one style.
    struct Span: Equatable, Sendable {
        var text: String
        var style: Style
    }

    var spans: [Span] = []

    init() {}

    init(_ text: String, _ style: Style = .plain) {
        spans = [Span(text: text, style: style)]
    }

    /// Columns taken.
    var width: Int { spans.reduce(0) { $0 + DisplayWidth.width(of: $1.text) } }

    /// Appends a span.
    mutating func append(_ text: String, _ style: Style = .plain) {
        spans.append(Span(text: text, style: style))
    }

    /// Appends another line's spans.
    static func + (left: Line, right: Line) -> Line {
        var line = left
        line.spans += right.spans
        return line
    }

    /// Cut (with "…") or padded with spaces in `padStyle` to exactly `columns`.
    func fitted(to columns: Int, padStyle: Style = .plain) -> Line {
        var result = Line()
        var used = 0
        for span in spans {
            let spanWidth = DisplayWidth.width(of: span.text)
            if used + spanWidth <= columns {
                result.spans.append(span)
                used += spanWidth
                continue
            }
            let cut = DisplayWidth.truncate(span.text, to: columns - used)
            result.spans.append(Span(text: cut, style: span.style))
            used += DisplayWidth.width(of: cut)
            break
        }
        if used < columns { result.append(String(repeating: " ", count: columns - used), padStyle) }
        return result
    }

    /// `left` at the start and `right` at the end of `columns`; `left` is cut first.
    static func spread(_ left: Line, _ right: Line, width columns: Int, padStyle: Style = .plain) -> Line {
        let rightWidth = min(right.width, columns)
        let leftPart = left.fitted(to: max(0, columns - rightWidth - (rightWidth > 0 ? 1 : 0)), padStyle: padStyle)
        var line = leftPart
        if rightWidth > 0 { line.append(" ", padStyle) }
        return (line + right).fitted(to: columns, padStyle: padStyle)
    }

    /// `content` centred in `columns`.
    static func centered(_ content: Line, width columns: Int) -> Line {
        let margin = max(0, (columns - content.width) / 2)
        return (Line(String(repeating: " ", count: margin)) + content).fitted(to: columns)
    }

    /// `content` pushed to the right edge of `columns`.
    static func right(_ content: Line, width columns: Int) -> Line {
        let margin = max(0, columns - content.width)
        return (Line(String(repeating: " ", count: margin)) + content).fitted(to: columns)
    }

    /// The line as terminal output.
    func rendered(colors: Bool) -> String {
        var output = ""
        var current: Style?
        for span in spans where !span.text.isEmpty {
            if span.style != current {
                output += span.style.sequence(colors: colors)
                current = span.style
            }
            // Other people's text must never reach the terminal as control sequences.
            output += span.text.filter { !DisplayWidth.isControl($0) }
        }
        return output + "\u{1B}[0m"
    }
}
