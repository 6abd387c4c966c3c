import Foundation
import ParleyKit

/// The sign-in screen's state (seeds 000 and 002): password login, SMS code login, or
/// registration, each with its own fields, checks and messages.
struct LoginForm {
    /// The three ways in.
    enum Method: CaseIterable {
        case password, sms, register
    }

    /// Where the form is.
    enum Phase: Equatable {
        case editing
        /// A request is running ("logging in, please wait").
        case busy(String)
        /// The last attempt failed, with the reason.
        case failed(String)
        /// Something worth saying that is not a failure ("Code sent").
        case note(String)
    }

    var method = Method.password
    var username = LineEditor(limit: 32)
    var password = LineEditor(secret: true, limit: 256)
    var confirmation = LineEditor(secret: true, limit: 256)
    var phone = LineEditor(limit: 20)
    var code = LineEditor(limit: 8)
    var focus = 0
    var phase = Phase.editing
    /// When another SMS code may be requested (the seed's 60-second countdown).
    var codeAvailableAt: Date?
    /// The last user who signed in here, for the seed's prefill.
    var lastUser: String?

    /// How many fields the current method has.
    var fieldCount: Int { method == .register ? 3 : 2 }

    /// The labels of the current method's fields, in `language`.
    func fieldLabels(in language: ParleyLanguage) -> [String] {
        switch method {
        case .password: return [language.pick("Username", "用户名"), language.pick("Password", "密码")]
        case .register: return [language.pick("Username", "用户名"), language.pick("Password", "密码"), language.pick("Again", "确认密码")]
        case .sms: return [language.pick("Phone", "手机号"), language.pick("Code", "验证码")]
        }
    }

    /// The tab title of `method`, in `language`.
    static func title(of method: Method, in language: ParleyLanguage) -> String {
        switch method {
        case .password: return language.pick("Password", "密码登录")
        case .sms: return language.pick("SMS code", "短信验证码")
        case .register: return language.pick("Register", "注册")
        }
    }

    /// The editor of field `index` of the current method.
    subscript(field index: Int) -> LineEditor {
        get {
            switch (method, index) {
            case (.sms, 0): return phone
            case (.sms, _): return code
            case (_, 0): return username
            case (_, 1): return password
            default: return confirmation
            }
        }
        set {
            switch (method, index) {
            case (.sms, 0): phone = newValue
            case (.sms, _): code = newValue
            case (_, 0): username = newValue
            case (_, 1): password = newValue
            default: confirmation = newValue
            }
        }
    }

    var isBusy: Bool {
        if case .busy = phase { return true }
        return false
    }

    /// Moves to the next method (Ctrl-T).
    mutating func switchMethod() {
        let all = Method.allCases
        method = all[((all.firstIndex(of: method) ?? 0) + 1) % all.count]
        focus = 0
        phase = .editing
    }

    /// Seconds until another code may be requested (0: now).
    func secondsUntilCode(now: Date = Date()) -> Int {
        guard let codeAvailableAt else { return 0 }
        return max(0, Int(codeAvailableAt.timeIntervalSince(now).rounded(.up)))
    }

    /// The seed's checks before anything is sent: each empty field and a mismatch has its
    /// own message, in `language`. Nil when the form may be sent.
    func problem(in language: ParleyLanguage) -> String? {
        switch method {
        case .password, .register:
            if username.text.trimmingCharacters(in: .whitespaces).isEmpty { return language.pick("Please enter a username", "请输入用户名") }
            if password.isEmpty { return language.pick("Please enter a password", "请输入密码") }
            if method == .register {
                if confirmation.isEmpty { return language.pick("Please enter the password again", "请再次输入密码") }
                if confirmation.text != password.text { return language.pick("The two passwords differ", "两次输入的密码不一致") }
            }
        case .sms:
            if !phoneLooksValid { return Self.phoneProblem(in: language) }
            if code.isEmpty { return language.pick("Please enter the code from the SMS", "请输入短信里的验证码") }
            if !code.text.allSatisfy(\.isNumber) { return language.pick("The code has digits only", "验证码只含数字") }
        }
        return nil
    }

    /// What is wrong with a phone number that does not look like one, in `language`.
    static func phoneProblem(in language: ParleyLanguage) -> String {
        language.pick("Please enter a phone number (11 digits, or + and the country code)", "请输入手机号（11 位，或 + 加国家代码）")
    }

    /// An 11-digit number starting with 1, or + and 8–15 digits (spaces and dashes ignored).
    var phoneLooksValid: Bool {
        let compact = phone.text.filter { $0 != " " && $0 != "-" }
        if compact.hasPrefix("+") { return (8...15).contains(compact.dropFirst().count) && compact.dropFirst().allSatisfy(\.isNumber) }
        return compact.count == 11 && compact.hasPrefix("1") && compact.allSatisfy(\.isNumber)
    }
}
