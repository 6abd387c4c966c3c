import Foundation
import ParleyKit
import ParleyProtocol

// The devices pane ("v" on the list): the account's signed-in devices, with signing all the
// others out ("o").
extension ChatApp {
    func openDevices() {
        focus = .devices
        devices = nil
        Task {
            do throws(ParleyError) {
                devices = try await client.signedInDevices()
            } catch {
                devices = []
                showFlash(describe(error), isError: true)
            }
            post.yield(.changed)
        }
    }

    func handleDevices(_ key: Key) {
        switch key {
        case .escape, .character("q"):
            focus = .list
        case .character("o"):
            prompt = Prompt(title: language.pick("Sign out all other devices? (y/n)", "退出所有其他设备？(y/n)"),
                            editor: LineEditor(limit: 1)) { [weak self] answer in
                guard let self, answer.lowercased() == "y" else { return nil }
                Task {
                    do throws(ParleyError) {
                        let count = try await client.signOutOtherDevices()
                        showFlash(language.pick("\(count) device(s) signed out", "已退出 \(count) 台设备"))
                        devices = try await client.signedInDevices()
                    } catch {
                        showFlash(describe(error), isError: true)
                    }
                    post.yield(.changed)
                }
                return nil
            }
        default:
            break
        }
    }

    func devicesPane(width: Int, height: Int) -> [Line] {
        var lines = [Line.spread(Line(" " + language.pick("Devices", "登录设备"), .bold), Line(), width: width)
            .restyled(Style(bold: true, underline: true))]
        let times = MessageTimeFormatter()
        if let devices {
            for device in devices {
                let name = device.deviceName ?? device.userAgent ?? language.pick("Unknown device", "未知设备")
                let mark = device.current ? language.pick("  (this device)", "  （本设备）") : ""
                lines.append(Line(" " + name + mark, device.current ? .bold : .plain))
                let used = language.pick("last used ", "最近使用 ") + times.label(for: device.lastSeenAt)
                lines.append(Line("   " + [device.lastAddress, used].compactMap { $0 }.joined(separator: " · "), .dim))
            }
        } else {
            lines.append(Line(" " + language.pick("Loading…", "加载中…"), .dim))
        }
        while lines.count < height { lines.append(Line()) }
        return Array(lines.prefix(height)).map { $0.fitted(to: width) }
    }
}
