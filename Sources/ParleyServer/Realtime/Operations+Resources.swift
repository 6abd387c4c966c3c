import ParleyCore
import ParleyProtocol
import ParleyXMPP

extension Operations {
    /// `user.resources`: the resources (native devices and Jabber clients) on which the user,
    /// or a friend of the user's, is online on this server now (docs/protocol.md).
    static func registerResources(on table: OperationTableBuilder, social: SocialService, native: NativeResources) {
        table.on(Op.UserResources.self) { context, reference throws(ProtocolError) in
            if reference.userId != context.user {
                // Only friends see each other's devices, as only they see each other's presence.
                _ = try await social.directConversation(of: context.user, with: reference.userId)
            }
            return ResourceList(resources: native.presences(of: reference.userId))
        }
    }
}
