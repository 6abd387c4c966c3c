extension SQLiteStoreSchema {
    /// Version 23: who may fetch an upload (docs/protocol.md, "Media access"). `media_uses`
    /// names the conversations a message carrying the upload was sent to (a forward adds
    /// one more); `media.is_public` marks uploads an avatar uses. Uploads already sent or
    /// used as avatars are linked from the messages' bodies and the avatar columns; an upload
    /// never sent stays its owner's alone.
    static let mediaAccess = """
        CREATE TABLE media_uses (
            media_id        TEXT NOT NULL,
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            PRIMARY KEY (media_id, conversation_id)
        ) STRICT, WITHOUT ROWID;
        -- The foreign key's check when a conversation is deleted.
        CREATE INDEX media_uses_by_conversation ON media_uses (conversation_id);
        INSERT OR IGNORE INTO media_uses (media_id, conversation_id)
            SELECT used.media_id, used.conversation_id FROM (
                SELECT coalesce(json_extract(body, '$.image.mediaId'), json_extract(body, '$.file.mediaId'),
                                json_extract(body, '$.voice.mediaId')) AS media_id, conversation_id
                FROM messages WHERE body IS NOT NULL AND kind <> 'text' AND kind <> 'system'
            ) AS used JOIN media ON media.id = used.media_id;
        ALTER TABLE media ADD COLUMN is_public INTEGER NOT NULL DEFAULT 0 CHECK (is_public = 0 OR is_public = 1);
        UPDATE media SET is_public = 1 WHERE id IN (
            SELECT substr(avatar, 11) FROM users WHERE avatar LIKE '/v1/media/%'
            UNION SELECT substr(avatar, 11) FROM conversations WHERE avatar LIKE '/v1/media/%');
        """
}
