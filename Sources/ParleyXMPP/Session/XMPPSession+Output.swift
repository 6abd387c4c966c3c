import ParleyCore
import ParleyNet
import ParleyProtocol

// The output side of a stream: stanzas and stream-level elements written (and counted for
// stream management), the stream header, STARTTLS and SASL's restart, stream errors, and
// the sign-in deadline that ends with binding.
extension XMPPSession {
    /// Sends a stanza or stream-level element.
    func send(_ element: XMLElement) {
        guard !handedOver else { return }
        let isStanza = element.namespace == Namespace.client
            && (element.name == "message" || element.name == "presence" || element.name == "iq")
        let bytes = element.serializedBytes()
        // Stream management keeps the stanza's text; otherwise none is made.
        if isStanza && counting { keep(String(decoding: bytes, as: UTF8.self)) }
        guard let connection, connection.isActive else { return }
        connection.write(ByteChunk.of(bytes))
    }

    /// Sends XML text; `isStanza` when it is one stanza (stream management counts those).
    func send(raw text: String, isStanza: Bool = false) {
        guard !handedOver else { return }
        if isStanza && counting { keep(text) }
        write(text)
    }

    /// Keeps a sent stanza until the client acknowledges it; asks for acknowledgements every
    /// few stanzas so the list stays short.
    func keep(_ text: String) {
        sentStanzas &+= 1
        unacknowledged.append((sentStanzas, text))
        if connection == nil && unacknowledged.count > Self.maxUnacknowledged && !handedOver {
            // A broken stream's client is not coming back for this much: give it up.
            resumeTimer?.cancel()
            resumeTimer = nil
            unacknowledged = []
            finish()
            return
        }
        if unacknowledged.count % Self.acknowledgementInterval == 0 {
            write(XMLElement("r", namespace: Namespace.streamManagement).serialized())
        }
    }

    /// Stanzas sent between requests for acknowledgement.
    static let acknowledgementInterval = 5
    /// Stanzas kept for a broken resumable stream before it is given up.
    static let maxUnacknowledged = 10_000

    /// Closes the connection (after what is queued), if it is open.
    func closeConnection() {
        connection?.close()
    }

    /// Writes (the connection encrypts when the stream uses TLS).
    func write(_ text: String) {
        guard let connection, connection.isActive else { return }
        connection.write(ByteChunk.of(string: text))
    }

    /// STARTTLS (RFC 6120 §5): `<proceed/>` goes out in the clear, and from the next byte on
    /// the connection is TLS with a fresh stream. Both at once on the loop.
    func startTLS() {
        guard let connection, connection.isActive, !connection.isTLS, let context = services.configuration.tls else { return }
        write(XMLElement("proceed", namespace: Namespace.tls).serialized())
        do throws(TLSError) {
            try connection.startTLS(context)
        } catch {
            connection.close()
            return
        }
        state.encrypted = true
        parser = XMLStreamParser(limits: services.configuration.limits)
        queue.removeAll()
        headerSent = false
    }

    func sendHeader() {
        guard !headerSent else { return }
        headerSent = true
        send(raw: "<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='\(Namespace.streams)' id='\(streamID)' from='\(XMLEscaping.attribute(domain))' version='1.0' xml:lang='en'>")
    }

    /// Sends `element` (SASL's success) and restarts the stream: a new parser for the new
    /// header the client sends next. Both at once on the loop, so no byte of the new stream
    /// can reach the old parser.
    func sendAndRestart(_ element: XMLElement) {
        guard let connection, connection.isActive else { return }
        write(element.serialized())
        parser = XMLStreamParser(limits: services.configuration.limits)
        queue.removeAll()
        headerSent = false
    }

    /// Ends the stream with a stream error.
    func fail(_ condition: StreamErrorCondition, _ text: String) {
        guard let connection, connection.isActive else { return }
        endedCleanly = true
        sendHeader()
        let error = XMLElement("error", namespace: Namespace.streams, [:], children: [
            XMLElement(condition.rawValue, namespace: Namespace.streamErrors),
            XMLElement("text", namespace: Namespace.streamErrors, [:], text: text),
        ])
        send(raw: error.serialized() + "</stream:stream>")
        services.logger.info("xmpp stream error", ["condition": .string(condition.rawValue), "address": .string(clientAddress)])
        queue.removeAll()
        // Closes after the error is written.
        connection.close()
    }

    /// Signed in and bound: the sign-in deadline is no longer needed.
    func cancelSignInDeadline() {
        connection?.setHandlerDeadline(after: nil)
    }
}
