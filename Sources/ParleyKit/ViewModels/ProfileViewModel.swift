public import Observation
public import ParleyProtocol

/// The Me page (seed 000's Profile): id, username, nickname, avatar URL, signature; an edit
/// mode (the avatar URL is editable only there); log out.
@MainActor
@Observable
public final class ProfileViewModel {
    /// The account as last known.
    public private(set) var account: Account?
    /// Whether the fields are being edited.
    public private(set) var isEditing = false
    /// Whether a save is in progress.
    public private(set) var isSaving = false
    /// What went wrong last.
    public private(set) var lastError: ParleyError?
    /// The nickname being edited.
    public var nickname = ""
    /// The avatar URL being edited (editable only in edit mode, as in the seed).
    public var avatar = ""
    /// The signature being edited.
    public var signature = ""
    /// Set only while the account has no username yet (a phone sign-up).
    public var username = ""

    /// The display name (seed 000's rule).
    public var displayName: String { account?.profile.displayName ?? "" }

    @ObservationIgnored private let client: ParleyClient
    @ObservationIgnored private var observation: ObservationTasks?

    /// The profile of `client`'s account; call `start()` when the page appears.
    public init(client: ParleyClient) {
        self.client = client
    }

    /// Shows the cached account and follows changes.
    public func start() async {
        account = await client.account
        guard observation == nil else { return }
        let events = client.events()
        observation = ObservationTasks([Task { [weak self] in
            for await event in events {
                guard let self else { return }
                if case .meUpdated(let account) = event { self.account = account }
                if case .signedOut = event { self.account = nil }
            }
        }])
    }

    /// Enters edit mode with the current values.
    public func beginEditing() {
        nickname = account?.profile.nickname ?? ""
        avatar = account?.profile.avatar ?? ""
        signature = account?.profile.signature ?? ""
        username = ""
        lastError = nil
        isEditing = true
    }

    /// Leaves edit mode without saving.
    public func cancelEditing() {
        isEditing = false
    }

    /// Saves the changed fields (an emptied field is cleared) and leaves edit mode.
    public func save() async {
        guard let profile = account?.profile else { return }
        var update = ProfileUpdate()
        update.nickname = Self.patch(nickname, was: profile.nickname)
        update.avatar = Self.patch(avatar, was: profile.avatar)
        update.signature = Self.patch(signature, was: profile.signature)
        if profile.username == nil, !username.trimmed.isEmpty { update.username = .set(username.trimmed) }
        guard !update.isEmpty else {
            isEditing = false
            return
        }
        isSaving = true
        defer { isSaving = false }
        do {
            account = try await client.updateProfile(update)
            isEditing = false
        } catch {
            lastError = error
        }
    }

    /// Signs out (the cache goes with it).
    public func logout() async {
        await client.logout()
        account = nil
    }

    private static func patch(_ draft: String, was current: String?) -> FieldPatch<String> {
        let value = draft.trimmed
        if value == (current ?? "") { return .unchanged }
        return value.isEmpty ? .clear : .set(value)
    }
}
