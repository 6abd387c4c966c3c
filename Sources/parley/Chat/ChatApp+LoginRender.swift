import Foundation
import ParleyKit

// The login form's frame (seeds 000 and 002): the method tabs, the fields, the state line and
// the key help, in the chosen language.
extension ChatApp {
    /// The login form, centred, with the focused field's cursor.
    func loginFrame(columns: Int, rows: Int) -> (lines: [Line], cursor: (row: Int, column: Int)?) {
        var lines: [Line] = [Line.spread(Line(" Parley", Style.bold.reversed), Line(language.pick("sign in ", "登录 "), .reverse), width: columns, padStyle: .reverse)]
        let boxWidth = min(columns - 2, 60)
        let margin = String(repeating: " ", count: max(0, (columns - boxWidth) / 2))
        let top = max(2, (rows - 14) / 2)
        while lines.count < top { lines.append(Line()) }
        lines.append(Line.centered(Line("Parley", Style.bold.colored(.green)), width: columns))
        lines.append(Line())
        var tabs = Line(margin)
        for method in LoginForm.Method.allCases {
            tabs.append(" \(LoginForm.title(of: method, in: language)) ", login.method == method ? Style.bold.reversed : .dim)
            tabs.append(" ")
        }
        lines.append(tabs)
        lines.append(Line())
        var cursor: (row: Int, column: Int)?
        let labelWidth = 10
        let fieldWidth = max(8, boxWidth - labelWidth - 2)
        for (index, label) in login.fieldLabels(in: language).enumerated() {
            let editor = login[field: index]
            let (text, column) = editor.visible(in: fieldWidth)
            let focused = index == login.focus
            var line = Line(margin + DisplayWidth.fit(label, to: labelWidth), focused ? .bold : .plain)
            line.append("[", .dim)
            line.append(DisplayWidth.fit(text, to: fieldWidth), focused ? Style(underline: true) : .plain)
            line.append("]", .dim)
            if focused && !login.isBusy {
                cursor = (lines.count, DisplayWidth.width(of: margin) + labelWidth + 1 + column)
            }
            lines.append(line)
        }
        lines.append(Line())
        switch login.phase {
        case .editing:
            if login.method == .sms {
                let wait = login.secondsUntilCode()
                lines.append(Line(margin + (wait > 0 ? language.pick("New code in \(wait) s", "\(wait) 秒后可重新获取")
                                                    : language.pick("Enter on Phone sends a code", "在手机号上按回车获取验证码")), .dim))
            } else if let last = login.lastUser, login.method == .password {
                lines.append(Line(margin + language.pick("Last signed in here: \(last)", "上次在此登录：\(last)"), .dim))
            } else {
                lines.append(Line())
            }
        case .busy(let text): lines.append(Line(margin + text, Style.bold.colored(.yellow)))
        case .failed(let text): lines.append(Line(margin + text, Style.bold.colored(.red)))
        case .note(let text): lines.append(Line(margin + text, Style().colored(.green)))
        }
        while lines.count < rows - 1 { lines.append(Line()) }
        lines.append(Line(language.pick(" Enter next/submit · Tab field · Ctrl-T password/SMS/register · Esc quit",
                                        " 回车 下一项/提交 · Tab 切换输入框 · Ctrl-T 密码/短信/注册 · Esc 退出"), .reverse))
        return (lines, cursor)
    }
}
