import Foundation
import ParleyNet

/// The upload routes whose bodies go straight to disk (`HTTPBodyStreaming`), and the
/// directory their temporary files live in until the upload is kept or refused.
enum IncomingUploads {
    /// The path of the file upload route.
    static let filesPath = "/v1/files"
    /// Where upload slots' bodies go (`PUT /v1/uploads/<token>`, XMPP's HTTP upload).
    static let slotsPrefix = "/v1/uploads/"

    /// Makes `<data>/incoming` (beside `<data>/media`, so keeping an upload is a rename)
    /// and empties it: what is there was left by a server that stopped mid-upload.
    static func prepare(dataDirectory: String) throws -> String {
        let directory = dataDirectory + "/incoming"
        let files = FileManager.default
        try files.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for name in (try? files.contentsOfDirectory(atPath: directory)) ?? [] where name.hasSuffix(".part") {
            try? files.removeItem(atPath: directory + "/" + name)
        }
        return directory
    }

    /// Streams the bodies of `POST /v1/files` and `PUT /v1/uploads/<token>` into
    /// `directory`, up to `maxFileBytes`.
    static func streaming(directory: String, maxFileBytes: Int) -> HTTPBodyStreaming {
        HTTPBodyStreaming(directory: directory) { head in
            let streamed = (head.method == .post && head.path == filesPath) || (head.method == .put && head.path.hasPrefix(slotsPrefix))
            return streamed ? maxFileBytes : nil
        }
    }
}
