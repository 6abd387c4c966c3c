import Foundation
import ParleyNet

/// The upload routes whose bodies go straight to disk (`HTTPBodyStreaming`), and the
/// directory their temporary files live in until the upload is kept or refused.
enum IncomingUploads {
    /// The path of the file upload route.
    static let filesPath = "/v1/files"

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

    /// Streams the bodies of `POST /v1/files` into `directory`, up to `maxFileBytes`.
    static func streaming(directory: String, maxFileBytes: Int) -> HTTPBodyStreaming {
        HTTPBodyStreaming(directory: directory) { head in
            head.method == .post && head.path == filesPath ? maxFileBytes : nil
        }
    }
}
