public import ParleyProtocol

/// The shape rules of account fields; every failure names the field.
public struct AccountValidator: Sendable {
    public let rules: AccountRules

    public init(rules: AccountRules) { self.rules = rules }

    /// A username of allowed characters and length.
    public func validateUsername(_ username: String) throws(ProtocolError) {
        let count = username.unicodeScalars.count
        guard rules.usernameLength.contains(count) else {
            throw ProtocolError(.invalidUsername, "a username has \(rules.usernameLength.lowerBound) to \(rules.usernameLength.upperBound) characters", field: "username")
        }
        guard username.unicodeScalars.allSatisfy(Self.isUsernameCharacter) else {
            throw ProtocolError(.invalidUsername, "a username may use only letters a-z, digits 0-9, '_', '.' and '-'", field: "username")
        }
    }

    static func isUsernameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", ".", "-": return true
        default: return false
        }
    }

    /// A password of allowed length in bytes.
    public func validatePassword(_ password: String) throws(ProtocolError) {
        guard rules.passwordBytes.contains(password.utf8.count) else {
            throw ProtocolError(.invalidPassword, "a password has \(rules.passwordBytes.lowerBound) to \(rules.passwordBytes.upperBound) bytes", field: "password")
        }
    }

    /// The E.164 form of a phone number: `+` and 8–15 digits, or an 11-digit national mobile
    /// number starting with 1 (seed 002), which gets the default country code. Spaces and
    /// dashes are ignored.
    public func normalizePhone(_ input: String) throws(ProtocolError) -> String {
        let compact = input.filter { $0 != " " && $0 != "-" }
        let invalid = ProtocolError(.invalidPhone, "a phone number is + and 8 to 15 digits, or an 11-digit mobile number", field: "phone")
        if compact.hasPrefix("+") {
            let digits = compact.dropFirst()
            guard (8...15).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), digits.first != "0" else { throw invalid }
            return compact
        }
        guard compact.count == 11, compact.allSatisfy(\.isASCIIDigit), compact.first == "1" else { throw invalid }
        return "+" + rules.smsDefaultCountryCode + compact
    }

    /// An SMS code of the configured length.
    public func validateCode(_ code: String) throws(ProtocolError) {
        guard code.count == rules.smsCodeLength, code.allSatisfy(\.isASCIIDigit) else {
            throw ProtocolError(.invalidCode, "the code has \(rules.smsCodeLength) digits", field: "code")
        }
    }

    /// A profile change's fields.
    public func validate(_ update: ProfileUpdate) throws(ProtocolError) {
        if case .set(let username) = update.username { try validateUsername(username) }
        if update.username == .clear {
            throw ProtocolError(.invalidUsername, "a username cannot be removed", field: "username")
        }
        if case .set(let nickname) = update.nickname { try rules.text.validate(nickname, as: .nickname) }
        if case .set(let signature) = update.signature { try rules.text.validate(signature, as: .signature) }
        if case .set(let avatar) = update.avatar {
            try validateAvatar(avatar)
        }
        if case .set(let age) = update.age, !rules.ageRange.contains(age) {
            throw ProtocolError(.invalidField, "age is from \(rules.ageRange.lowerBound) to \(rules.ageRange.upperBound)", field: "age")
        }
        if case .set(let hobbies) = update.hobbies {
            guard hobbies.count <= rules.maxHobbies else {
                throw ProtocolError(.invalidField, "at most \(rules.maxHobbies) hobbies", field: "hobbies")
            }
            for hobby in hobbies { try rules.text.validate(hobby, as: .hobby) }
        }
    }

    /// An avatar is an uploaded media path (`/v1/media/<id>`) or an http(s) URL.
    func validateAvatar(_ avatar: String) throws(ProtocolError) {
        let error = ProtocolError(.invalidField, "an avatar is /v1/media/<id> or an http(s) URL of at most \(rules.maxAvatarURLLength) characters", field: "avatar")
        guard avatar.utf8.count <= rules.maxAvatarURLLength, !avatar.containsControlCharacters, !avatar.contains(" ") else { throw error }
        if avatar.hasPrefix("/v1/media/") {
            let id = avatar.dropFirst("/v1/media/".count)
            guard !id.isEmpty, id.allSatisfy({ $0.isASCIILetterOrDigit || $0 == "-" || $0 == "_" }) else { throw error }
            return
        }
        let lower = avatar.lowercased()
        guard (lower.hasPrefix("https://") || lower.hasPrefix("http://")), avatar.count > 8 else { throw error }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
    var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}

extension String {
    var containsControlCharacters: Bool {
        unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
