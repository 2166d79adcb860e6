"""The PostgreSQL schema and its migrations, versioned in ``sahra_schema``.

The same tables and indexes as the SQLite schema (``schema.py``) at its current version,
in PostgreSQL's types: times and ratings in ``DOUBLE PRECISION`` (PostgreSQL's ``REAL``
is single precision), ids and seeds in ``BIGINT``. Each entry of ``PG_MIGRATIONS`` moves a
database from version ``i`` to ``i + 1``; a new column or table is a new entry, never an
edit of an old one. Migrations run in one transaction under an advisory lock, so
processes that start together migrate once.
"""

from __future__ import annotations

PG_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id            BIGINT PRIMARY KEY,
        platform      TEXT    NOT NULL,
        chat          TEXT    NOT NULL,
        thread        TEXT    NOT NULL DEFAULT '',
        variant       TEXT    NOT NULL,
        config        TEXT    NOT NULL,
        seed          BIGINT  NOT NULL,
        decks         TEXT,
        status        TEXT    NOT NULL,
        creator       TEXT    NOT NULL,
        created_at    DOUBLE PRECISION NOT NULL,
        updated_at    DOUBLE PRECISION NOT NULL,
        last_human_at DOUBLE PRECISION NOT NULL,
        deadline      DOUBLE PRECISION,
        deadline_kind TEXT,
        seq           INTEGER NOT NULL DEFAULT 0
    );
    CREATE UNIQUE INDEX tables_one_live_per_place
        ON tables (platform, chat, thread) WHERE status IN ('lobby', 'running');
    CREATE INDEX tables_live ON tables (status) WHERE status IN ('lobby', 'running');

    CREATE TABLE seats (
        table_id BIGINT  NOT NULL REFERENCES tables (id),
        seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        kind     TEXT    NOT NULL,
        owner    TEXT,
        name     TEXT    NOT NULL,
        language TEXT    NOT NULL,
        away     INTEGER NOT NULL DEFAULT 0,
        timeouts INTEGER NOT NULL DEFAULT 0,
        ready    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, seat)
    );

    CREATE TABLE actions (
        table_id      BIGINT  NOT NULL REFERENCES tables (id),
        seq           INTEGER NOT NULL,
        seat          INTEGER NOT NULL,
        action        TEXT    NOT NULL,
        source        TEXT    NOT NULL,
        at            DOUBLE PRECISION NOT NULL,
        deadline      DOUBLE PRECISION,
        deadline_kind TEXT,
        PRIMARY KEY (table_id, seq)
    );

    CREATE TABLE players (
        platform   TEXT    NOT NULL,
        user_id    TEXT    NOT NULL,
        name       TEXT    NOT NULL,
        language   TEXT,
        dm_ok      INTEGER NOT NULL DEFAULT 0,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (platform, user_id)
    );

    CREATE TABLE results (
        table_id    BIGINT PRIMARY KEY REFERENCES tables (id),
        variant     TEXT    NOT NULL,
        status      TEXT    NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        winners     TEXT    NOT NULL,
        draw        INTEGER NOT NULL,
        scores      TEXT    NOT NULL,
        players     TEXT    NOT NULL,
        away        TEXT    NOT NULL DEFAULT '[]',
        rated       INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX results_by_variant ON results (variant, finished_at);
    CREATE INDEX results_waiting ON results (finished_at, table_id) WHERE rated = 0;

    CREATE TABLE chats (
        platform   TEXT NOT NULL,
        chat       TEXT NOT NULL,
        language   TEXT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (platform, chat)
    );

    CREATE TABLE messages (
        platform   TEXT    NOT NULL,
        chat       TEXT    NOT NULL,
        key        TEXT    NOT NULL,
        message_id TEXT    NOT NULL,
        grp        INTEGER NOT NULL,
        at         DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (platform, chat, key)
    );
    CREATE INDEX messages_by_age ON messages (at);

    CREATE TABLE match_players (
        table_id      BIGINT  NOT NULL REFERENCES tables (id),
        seat          INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        platform      TEXT    NOT NULL,
        chat          TEXT    NOT NULL,
        user_id       TEXT    NOT NULL,
        family        TEXT    NOT NULL,
        variant       TEXT    NOT NULL,
        outcome       TEXT    NOT NULL,
        score         INTEGER NOT NULL,
        figures       TEXT    NOT NULL,
        rating_before DOUBLE PRECISION NOT NULL,
        rating_after  DOUBLE PRECISION NOT NULL,
        finished_at   DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX match_players_by_chat ON match_players (platform, chat, family, user_id);
    CREATE INDEX match_players_by_user ON match_players (platform, user_id, family);

    CREATE TABLE ratings (
        platform   TEXT    NOT NULL,
        family     TEXT    NOT NULL,
        user_id    TEXT    NOT NULL,
        mu         DOUBLE PRECISION NOT NULL,
        sigma      DOUBLE PRECISION NOT NULL,
        matches    INTEGER NOT NULL,
        wins       INTEGER NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (platform, family, user_id)
    );
    """,
    # 2: several processes on one database. ``guild`` places a Discord table on its
    # server's shard; ``table_ids`` hands out table ids no two processes share; ``inbox``
    # carries an update that reached a process to the process that owns its table. The
    # inbox is UNLOGGED: a row lives milliseconds and the platform has been answered
    # already, so it needs no fsync (a server crash empties it; the move was never
    # acknowledged), and forwarding costs no WAL flush on either side.
    """
    ALTER TABLE tables ADD COLUMN guild TEXT NOT NULL DEFAULT '';
    CREATE SEQUENCE table_ids;
    SELECT setval('table_ids', coalesce((SELECT max(id) FROM tables), 0) + 1, false);

    CREATE UNLOGGED TABLE inbox (
        id      BIGSERIAL PRIMARY KEY,
        target  TEXT NOT NULL,
        payload TEXT NOT NULL,
        at      DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX inbox_by_target ON inbox (target, id);
    """,
    # 3: secrets every process must share (the Telegram webhook's secret token when none
    # is configured), made once by the first process that needs one.
    """
    CREATE TABLE secrets (
        name  TEXT NOT NULL PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 4: the web table on several processes. Every committed change of a table (its row,
    # a seat, a move) sends its id on ``sahra_table`` from the transaction that made it: a
    # process serving pages of a table it does not own reads the change then. NOTIFY is
    # delivered at commit and not at all on rollback, and a transaction's identical
    # payloads are sent once, so a commit of many moves wakes each listener once.
    """
    CREATE FUNCTION sahra_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_TABLE_NAME = 'tables' THEN
            PERFORM pg_notify('sahra_table', NEW.id::text);
        ELSIF TG_OP = 'DELETE' THEN
            PERFORM pg_notify('sahra_table', OLD.table_id::text);
        ELSE
            PERFORM pg_notify('sahra_table', NEW.table_id::text);
        END IF;
        RETURN NULL;
    END
    $$;
    CREATE TRIGGER tables_changed AFTER INSERT OR UPDATE ON tables
        FOR EACH ROW EXECUTE FUNCTION sahra_table_changed();
    CREATE TRIGGER seats_changed AFTER INSERT OR UPDATE OR DELETE ON seats
        FOR EACH ROW EXECUTE FUNCTION sahra_table_changed();
    CREATE TRIGGER actions_changed AFTER INSERT ON actions
        FOR EACH ROW EXECUTE FUNCTION sahra_table_changed();
    """,
    # 5: the web table's personal links already exchanged, until they expire: a link is
    # good once on every process, not once per process (schema.py, 8).
    """
    CREATE TABLE spent_links (
        nonce   TEXT NOT NULL PRIMARY KEY,
        expires DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX spent_links_by_expiry ON spent_links (expires);
    """,
    # 6: every change of a lobby moves its version, which its buttons and pages carry: a
    # command drawn before a change (a second tap on Add computer) is refused as stale.
    """
    ALTER TABLE tables ADD COLUMN lobby_version INTEGER NOT NULL DEFAULT 0;
    """,
    # 7: a finished deal's double-dummy analysis, kept with the match (schema.py, 10).
    """
    CREATE TABLE deal_reviews (
        table_id   BIGINT  NOT NULL REFERENCES tables (id),
        deal       INTEGER NOT NULL,
        version    INTEGER NOT NULL,
        analysis   TEXT    NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, deal)
    );
    """,
)

PG_SCHEMA_VERSION = len(PG_MIGRATIONS)
