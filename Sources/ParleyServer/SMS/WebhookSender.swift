import Foundation
import FoundationNetworking
import ParleyCore

/// Production SMS delivery: POSTs `{"phone","code","at"}` as JSON to a gateway URL; any 2xx
/// answer counts as delivered.
struct WebhookSender: SMSSending {
    let url: URL
    let timeout: TimeInterval

    func send(phone: String, code: String) async throws {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(try SMSMessage(phone: phone, code: code, at: Int64(Date().timeIntervalSince1970 * 1000)).jsonLine())
        let response: URLResponse
        do {
            (_, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw SMSDeliveryError.gatewayUnreachable(error.localizedDescription)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else { throw SMSDeliveryError.gatewayStatus(status) }
    }
}
