public import Foundation
public import ParleyProtocol

// Fetching uploads (docs/protocol.md, "Media access"): a message names its upload by path
// (`/v1/media/<id>`), which only members of the conversation may fetch.
extension ParleyClient {
    /// A signed, short-lived link to an upload the user may see, for handing to something
    /// that cannot send the session token (an image view, a media player, a browser).
    /// Errors: `forbidden` (not sent to a conversation of the user's), `not_found`.
    public func signedMediaURL(mediaId: String) async throws(ParleyError) -> SignedMediaURL {
        try await call(Op.MediaURL.self, MediaURLParameters(mediaId: mediaId))
    }

    /// The bytes of an upload (`/v1/media/<id>`), fetched with the session token.
    /// Errors: `forbidden`, `not_found`.
    public func downloadMedia(_ path: String) async throws(ParleyError) -> Data {
        try await http.exchange("GET", path, body: nil, contentType: nil, token: try requireToken())
    }
}
