import Foundation

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

    /// The fields of the current method, with their labels.
    var fieldLabels: [String] {
        switch method {
        case .password: return ["Username", "Password"]
        case .register: return ["Username", "Password", "Again"]
        case .sms: return ["Phone", "Code"]
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
    /// own message. Nil when the form may be sent.
    func problem() -> String? {
        switch method {
        case .password, .register:
            if username.text.trimmingCharacters(in: .whitespaces).isEmpty { return "Please enter a username" }
            if password.isEmpty { return "Please enter a password" }
            if method == .register {
                if confirmation.isEmpty { return "Please enter the password again" }
                if confirmation.text != password.text { return "The two passwords differ" }
            }
        case .sms:
            if !phoneLooksValid { return "Please enter a phone number (11 digits, or + and the country code)" }
            if code.isEmpty { return "Please enter the code from the SMS" }
            if !code.text.allSatisfy(\.isNumber) { return "The code has digits only" }
        }
        return nil
    }

    /// An 11-digit number starting with 1, or + and 8–15 digits (spaces and dashes ignored).
    var phoneLooksValid: Bool {
        let compact = phone.text.filter { $0 != " " && $0 != "-" }
        if compact.hasPrefix("+") { return (8...15).contains(compact.dropFirst().count) && compact.dropFirst().allSatisfy(\.isNumber) }
        return compact.count == 11 && compact.hasPrefix("1") && compact.allSatisfy(\.isNumber)
    }
}
