extension PostgresStoreSchema {
    /// Version 21: who may fetch an upload (SQLite's version 23; docs/protocol.md, "Media
    /// access"). `media_uses` names the conversations a message carrying the upload was sent
    /// to; `media.is_public` marks uploads an avatar uses. Existing uses are linked from the
    /// messages' bodies and the avatar columns; an upload never sent stays its owner's alone.
    static let mediaAccess = """
        CREATE TABLE media_uses (
            media_id        TEXT NOT NULL,
            conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            PRIMARY KEY (media_id, conversation_id)
        );
        CREATE INDEX media_uses_by_conversation ON media_uses (conversation_id);
        INSERT INTO media_uses (media_id, conversation_id)
            SELECT DISTINCT used.media_id, used.conversation_id FROM (
                SELECT coalesce(body->'image'->>'mediaId', body->'file'->>'mediaId', body->'voice'->>'mediaId') AS media_id,
                       conversation_id
                FROM messages WHERE body IS NOT NULL AND kind IN ('image', 'file', 'voice')
            ) AS used JOIN media ON media.id = used.media_id
            ON CONFLICT DO NOTHING;
        ALTER TABLE media ADD COLUMN is_public BOOLEAN NOT NULL DEFAULT false;
        UPDATE media SET is_public = true WHERE id IN (
            SELECT substr(avatar, 11) FROM users WHERE avatar LIKE '/v1/media/%'
            UNION SELECT substr(avatar, 11) FROM conversations WHERE avatar LIKE '/v1/media/%');
        """
}
