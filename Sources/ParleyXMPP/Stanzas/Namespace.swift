/// The XML namespaces the gateway speaks.
public enum Namespace {
    public static let client = "jabber:client"
    public static let streams = "http://etherx.jabber.org/streams"
    public static let streamErrors = "urn:ietf:params:xml:ns:xmpp-streams"
    public static let stanzaErrors = "urn:ietf:params:xml:ns:xmpp-stanzas"
    public static let tls = "urn:ietf:params:xml:ns:xmpp-tls"
    public static let sasl = "urn:ietf:params:xml:ns:xmpp-sasl"
    public static let bind = "urn:ietf:params:xml:ns:xmpp-bind"
    public static let session = "urn:ietf:params:xml:ns:xmpp-session"
    public static let roster = "jabber:iq:roster"
    public static let privateStorage = "jabber:iq:private"
    public static let bookmarks = "storage:bookmarks"
    public static let clientStateIndication = "urn:xmpp:csi:0"
    public static let ping = "urn:xmpp:ping"
    public static let discoInfo = "http://jabber.org/protocol/disco#info"
    public static let discoItems = "http://jabber.org/protocol/disco#items"
    public static let vcard = "vcard-temp"
    public static let lastActivity = "jabber:iq:last"
    public static let blocking = "urn:xmpp:blocking"
    public static let receipts = "urn:xmpp:receipts"
    public static let chatStates = "http://jabber.org/protocol/chatstates"
    public static let chatMarkers = "urn:xmpp:chat-markers:0"
    public static let delay = "urn:xmpp:delay"
    public static let stanzaID = "urn:xmpp:sid:0"
    public static let outOfBand = "jabber:x:oob"
    public static let carbons = "urn:xmpp:carbons:2"
    public static let forward = "urn:xmpp:forward:0"
    public static let mam = "urn:xmpp:mam:2"
    public static let resultSetManagement = "http://jabber.org/protocol/rsm"
    public static let dataForms = "jabber:x:data"
    public static let streamManagement = "urn:xmpp:sm:3"
    public static let muc = "http://jabber.org/protocol/muc"
    public static let mucUser = "http://jabber.org/protocol/muc#user"
    public static let mucAdmin = "http://jabber.org/protocol/muc#admin"
    public static let mucOwner = "http://jabber.org/protocol/muc#owner"
    public static let mucRoomConfig = "http://jabber.org/protocol/muc#roomconfig"
    /// Direct invitations (XEP-0249).
    public static let conference = "jabber:x:conference"
    /// In-band registration (XEP-0077), which XEP-0045 §7.10 uses to become a room's member.
    public static let register = "jabber:iq:register"
    /// HTTP file upload (XEP-0363).
    public static let httpUpload = "urn:xmpp:http:upload:0"
    /// Message actions (`MessageActionStanzas`).
    public static let correction = "urn:xmpp:message-correct:0"
    public static let retraction = "urn:xmpp:message-retract:1"
    /// Moderated message retraction (XEP-0425).
    public static let moderation = "urn:xmpp:message-moderate:1"
    public static let reactions = "urn:xmpp:reactions:0"
    public static let reply = "urn:xmpp:reply:0"
    public static let references = "urn:xmpp:reference:0"
    /// Publish-subscribe (XEP-0060) as personal eventing (XEP-0163), and its events.
    public static let pubsub = "http://jabber.org/protocol/pubsub"
    public static let pubsubEvent = "http://jabber.org/protocol/pubsub#event"
    public static let pubsubOwner = "http://jabber.org/protocol/pubsub#owner"
    public static let pubsubErrors = "http://jabber.org/protocol/pubsub#errors"
    public static let pubsubPublishOptions = "http://jabber.org/protocol/pubsub#publish-options"
    public static let pubsubNodeConfig = "http://jabber.org/protocol/pubsub#node_config"
    /// Push notifications (XEP-0357).
    public static let push = "urn:xmpp:push:0"
    /// PEP native bookmarks (XEP-0402).
    public static let bookmarks2 = "urn:xmpp:bookmarks:1"
    /// User Avatar (XEP-0084): the metadata and data nodes.
    public static let avatarMetadata = "urn:xmpp:avatar:metadata"
    public static let avatarData = "urn:xmpp:avatar:data"
    /// vCard-based avatar hashes in presence (XEP-0153), which XEP-0398 fills from the avatar.
    public static let vcardUpdate = "vcard-temp:x:update"
    /// Entity capabilities (XEP-0115).
    public static let caps = "http://jabber.org/protocol/caps"
    /// User Nickname (XEP-0172).
    public static let nick = "http://jabber.org/protocol/nick"
}
