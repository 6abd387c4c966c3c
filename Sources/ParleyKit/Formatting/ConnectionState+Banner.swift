extension ConnectionState {
    /// UI.md's slim connection banner: nil when online, else "Connecting…" or
    /// "No connection — retrying in 5 s" (or what the user has to do).
    public func bannerText(language: ParleyLanguage = .english) -> String? {
        switch self {
        case .online:
            return nil
        case .connecting:
            return language.pick("Connecting…", "正在连接…")
        case .offline(.signedOut, _), .offline(.sessionRefused, _):
            return language.pick("Signed out — please sign in again", "已退出登录，请重新登录")
        case .offline(.stopped, _):
            return language.pick("Offline", "离线")
        case .offline(_, let retryIn?):
            let seconds = max(1, Int(retryIn.components.seconds) + (retryIn.components.attoseconds > 0 ? 1 : 0))
            return language.pick("No connection — retrying in \(seconds) s", "网络连接已断开，\(seconds) 秒后重试")
        case .offline:
            return language.pick("No connection", "网络连接已断开")
        }
    }
}
