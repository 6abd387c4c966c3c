import Foundation
import ParleyProtocol

/// `json-frames`: the JSON the server decodes from clients, through `JSONDecoder` as the
/// server uses it: the WebSocket envelope (`RequestFrame`), every operation's parameters
/// both inside a frame's `data` (as `OperationRequest.parameters` reads them) and as a bare
/// HTTP body (as `JSONCoding.decode` does), and the shapes clients read back.
///
/// Invariants: decoding never crashes; whatever decodes re-encodes to JSON that decodes
/// again to a value that encodes to the very same bytes (the wire form is stable), and
/// to an equal value where the type is `Equatable`.
enum JSONFramesHarness {
    /// `data` as the server reads it: absent or null is allowed.
    struct OptionalData<T: Decodable>: Decodable {
        var data: T?
    }

    /// One type's check, type-erased so they can sit in a list.
    struct Check: Sendable {
        let name: String
        let run: @Sendable (Data) throws(InvariantFailure) -> Void
    }

    /// Every type a client's JSON is decoded into, plus those clients decode from the
    /// server (which must read back what the server writes).
    static let checks: [Check] = [
        // Envelope and authentication.
        check(RequestFrame.self), check(AuthParameters.self), check(Credentials.self),
        check(SMSCodeRequest.self), check(SMSCodeVerification.self),
        // Account and social operations.
        check(ProfileUpdate.self), check(UserLookup.self), check(FriendRequestParameters.self),
        check(RequestReference.self), check(UserReference.self), check(PageParameters.self),
        // Groups, rooms, messages, sync.
        check(CreateParameters.self), check(NameReference.self), check(ConversationReference.self),
        check(GroupMembersParameters.self), check(GroupUpdate.self), check(MemberReference.self),
        check(SendParameters.self), check(HistoryParameters.self), check(ReadParameters.self), check(SyncParameters.self),
        // What clients read.
        check(ErrorBody.self), check(Account.self), check(Message.self),
        check(ConversationSummary.self), check(AuthResult.self),
    ]

    static func run(_ bytes: [UInt8]) throws(InvariantFailure) {
        let data = Data(bytes)
        for check in checks {
            try check.run(data)
        }
        try checkFrameReader(bytes, data)
    }

    /// `FrameReader` (the hand-written scanner with `JSONDecoder` behind it) never crashes, and
    /// what it reads as `message.send`'s parameters is what `JSONDecoder` reads from the
    /// frame's `data`; a server frame it reads as an event decodes as `JSONDecoder` would.
    static func checkFrameReader(_ bytes: [UInt8], _ data: Data) throws(InvariantFailure) {
        if let envelope = try? FrameReader.request(bytes),
           let fast = try? FrameReader.parameters(SendParameters.self, in: bytes, envelope),
           let reference = (try? JSONDecoder().decode(OptionalData<SendParameters>.self, from: data))?.data {
            try InvariantFailure.expect(fast.conversationId == reference.conversationId && fast.clientId == reference.clientId
                                        && fast.kind == reference.kind && fast.text == reference.text && fast.mediaId == reference.mediaId
                                        && fast.replyTo == reference.replyTo && fast.mentions == reference.mentions
                                        && fast.mentionsAll == reference.mentionsAll,
                                        "FrameReader and JSONDecoder read different send parameters")
        }
        if case .event(let name, let range)? = FrameReader.serverFrame(data), let event = try? ServerEvent.decode(name: name, in: data, range) {
            let again = FrameWriter.event(event).map { Data($0) }
            try InvariantFailure.expect(again.flatMap { written -> ServerEvent? in
                guard case .event(let name2, let range2)? = FrameReader.serverFrame(written) else { return nil }
                return try? ServerEvent.decode(name: name2, in: written, range2)
            } == event, "an event read from a frame does not read back from the frame written for it")
        }
    }

    /// The check for a type without `==`: stable encoding only.
    static func check<T: Codable & Sendable>(_ type: T.Type) -> Check {
        check(type, areEqual: nil)
    }

    /// The check for an `Equatable` type (overload resolution picks it for those): stable
    /// encoding and an equal value after the round trip.
    static func check<T: Codable & Sendable & Equatable>(_ type: T.Type) -> Check {
        check(type, areEqual: { $0 == $1 })
    }

    private static func check<T: Codable & Sendable>(_ type: T.Type, areEqual: (@Sendable (T, T) -> Bool)?) -> Check {
        Check(name: "\(T.self)") { (data: Data) throws(InvariantFailure) in
            // A bare body, as `JSONCoding.decode` reads HTTP requests.
            if let value = try? JSONDecoder().decode(T.self, from: data) {
                try roundTrip(value, areEqual: areEqual)
            }
            // The `data` member of a WebSocket request, as `OperationRequest.parameters` reads it.
            if let frame = try? JSONDecoder().decode(OptionalData<T>.self, from: data), let value = frame.data {
                try roundTrip(value, areEqual: areEqual)
            }
        }
    }

    /// Encodes `value`, decodes that, and encodes again: both encodings must be identical.
    static func roundTrip<T: Codable>(_ value: T, areEqual: ((T, T) -> Bool)?) throws(InvariantFailure) {
        let encoder = JSONEncoder()
        // The server's formatting, plus sorted keys so that equal values give equal bytes.
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let first: Data
        do {
            first = try encoder.encode(value)
        } catch {
            throw InvariantFailure("\(T.self) decoded but does not encode: \(error)")
        }
        let decoded: T
        do {
            decoded = try JSONDecoder().decode(T.self, from: first)
        } catch {
            throw InvariantFailure("\(T.self) does not decode its own encoding \(String(decoding: first, as: UTF8.self)): \(error)")
        }
        if let areEqual {
            try InvariantFailure.expect(areEqual(decoded, value), "\(T.self) changed in a round trip through \(String(decoding: first, as: UTF8.self))")
        }
        let second = try? encoder.encode(decoded)
        try InvariantFailure.expect(second == first, """
            \(T.self) encodes differently after a round trip:
              \(String(decoding: first, as: UTF8.self))
              \(second.map { String(decoding: $0, as: UTF8.self) } ?? "(does not encode)")
            """)
    }
}
