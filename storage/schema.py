"""The SQLite schema and its migrations, versioned by ``PRAGMA user_version``.

Each entry of ``MIGRATIONS`` moves the file from version ``i`` to ``i + 1``; a new column or
table is a new entry, never an edit of an old one. The action log is the source of truth:
a table is ``(variant, config, seed, decks, actions)`` and is restored by replaying it.
"""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id            INTEGER PRIMARY KEY,
        platform      TEXT    NOT NULL,
        chat          TEXT    NOT NULL,
        thread        TEXT    NOT NULL DEFAULT '',
        variant       TEXT    NOT NULL,
        config        TEXT    NOT NULL,          -- TableConfig as JSON
        seed          INTEGER NOT NULL,
        decks         TEXT,                      -- stacked decks as JSON, or NULL
        status        TEXT    NOT NULL,          -- lobby running finished abandoned…
        creator       TEXT    NOT NULL,
        created_at    REAL    NOT NULL,
        updated_at    REAL    NOT NULL,
        last_human_at REAL    NOT NULL,
        deadline      REAL,                      -- absolute time of the pending timer
        deadline_kind TEXT,                      -- turn forced lobby (moves: see actions)
        seq           INTEGER NOT NULL DEFAULT 0 -- actions in the log at the last row update
    );
    CREATE UNIQUE INDEX tables_one_live_per_place
        ON tables (platform, chat, thread) WHERE status IN ('lobby', 'running');
    CREATE INDEX tables_live ON tables (status) WHERE status IN ('lobby', 'running');

    CREATE TABLE seats (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        kind     TEXT    NOT NULL,               -- human computer
        owner    TEXT,                           -- the platform user of a human seat
        name     TEXT    NOT NULL,
        language TEXT    NOT NULL,
        away     INTEGER NOT NULL DEFAULT 0,     -- a computer stands in for the owner
        timeouts INTEGER NOT NULL DEFAULT 0,     -- consecutive timeouts
        PRIMARY KEY (table_id, seat)
    );

    CREATE TABLE actions (
        table_id      INTEGER NOT NULL REFERENCES tables (id),
        seq           INTEGER NOT NULL,          -- 1, 2, 3, … per table
        seat          INTEGER NOT NULL,
        action        TEXT    NOT NULL,          -- the engine action dict as JSON
        source        TEXT    NOT NULL,          -- human timeout computer forced
        at            REAL    NOT NULL,
        deadline      REAL,                      -- the table's timer after this action:
        deadline_kind TEXT,                      -- one row per move, nothing else to write
        PRIMARY KEY (table_id, seq)
    ) WITHOUT ROWID;

    CREATE TABLE snapshots (
        table_id INTEGER PRIMARY KEY REFERENCES tables (id),
        seq      INTEGER NOT NULL,
        state    TEXT    NOT NULL                -- Match.to_json() after action seq
    );

    CREATE TABLE players (
        platform   TEXT    NOT NULL,
        user_id    TEXT    NOT NULL,
        name       TEXT    NOT NULL,
        language   TEXT,
        dm_ok      INTEGER NOT NULL DEFAULT 0,   -- the bot can reach them privately
        updated_at REAL    NOT NULL,
        PRIMARY KEY (platform, user_id)
    );

    CREATE TABLE results (
        table_id    INTEGER PRIMARY KEY REFERENCES tables (id),
        variant     TEXT    NOT NULL,
        status      TEXT    NOT NULL,            -- finished abandoned stopped
        finished_at REAL    NOT NULL,
        winners     TEXT    NOT NULL,            -- JSON list of seats
        draw        INTEGER NOT NULL,
        scores      TEXT    NOT NULL,            -- JSON list of 4 ints
        players     TEXT    NOT NULL             -- JSON list of 4 owners (null = computer)
    );
    CREATE INDEX results_by_variant ON results (variant, finished_at);
    """,
    """
    CREATE TABLE chats (
        platform   TEXT NOT NULL,
        chat       TEXT NOT NULL,
        language   TEXT NOT NULL,                -- the group's language (/lang)
        updated_at REAL NOT NULL,
        PRIMARY KEY (platform, chat)
    );
    """,
    # Version 3: restoring a table replays its log (fast enough: a whole match replays in
    # milliseconds), so the snapshots table was never written; it goes.
    """
    DROP TABLE snapshots;
    """,
    # Version 4: the messages a chat's keys are edited through (a table's message, a
    # hand), so a restarted process edits them instead of posting copies.
    """
    CREATE TABLE messages (
        platform   TEXT    NOT NULL,
        chat       TEXT    NOT NULL,
        key        TEXT    NOT NULL,             -- the outbox key as JSON
        message_id TEXT    NOT NULL,
        grp        INTEGER NOT NULL,             -- 1: a group (its budget), 0: private
        at         REAL    NOT NULL,             -- when the message was posted (wall clock)
        PRIMARY KEY (platform, chat, key)
    );
    CREATE INDEX messages_by_age ON messages (at);
    """,
    # Version 5: the league. A finished match's players with their outcome and figures, and
    # one rating per player, variant family and platform (rebuilt from the results in order
    # on demand); results say who had left and whether the league has them yet; seats say
    # who confirmed a rematch.
    """
    ALTER TABLE results ADD COLUMN away TEXT NOT NULL DEFAULT '[]';  -- seats left to a computer
    ALTER TABLE results ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;  -- 0 waiting 1 done 2 skipped
    ALTER TABLE seats ADD COLUMN ready INTEGER NOT NULL DEFAULT 0;  -- confirmed a rematch
    CREATE INDEX results_waiting ON results (finished_at, table_id) WHERE rated = 0;

    CREATE TABLE match_players (
        table_id      INTEGER NOT NULL REFERENCES tables (id),
        seat          INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        platform      TEXT    NOT NULL,
        chat          TEXT    NOT NULL,
        user_id       TEXT    NOT NULL,
        family        TEXT    NOT NULL,          -- tarneeb solo trix
        variant       TEXT    NOT NULL,
        outcome       TEXT    NOT NULL,          -- win loss draw left
        score         INTEGER NOT NULL,
        figures       TEXT    NOT NULL,          -- JSON counters, summed over matches
        rating_before REAL    NOT NULL,          -- the shown rating before and after
        rating_after  REAL    NOT NULL,
        finished_at   REAL    NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX match_players_by_chat ON match_players (platform, chat, family, user_id);
    CREATE INDEX match_players_by_user ON match_players (platform, user_id, family);

    CREATE TABLE ratings (
        platform   TEXT    NOT NULL,
        family     TEXT    NOT NULL,
        user_id    TEXT    NOT NULL,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        matches    INTEGER NOT NULL,
        wins       INTEGER NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (platform, family, user_id)
    );
    """,
    # 6: the Discord server a table's channel belongs to: it decides the shard, and so the
    # process, that owns the table when shards are spread over processes.
    """
    ALTER TABLE tables ADD COLUMN guild TEXT NOT NULL DEFAULT '';
    """,
    # 7: secrets every process of an installation must share, made once by the first that
    # needs one (the Telegram webhook's secret token when none is configured).
    """
    CREATE TABLE secrets (
        name  TEXT NOT NULL PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 8: the web table's personal links already exchanged, until they expire: a link is
    # good once on every process of an installation, not once per process.
    """
    CREATE TABLE spent_links (
        nonce   TEXT NOT NULL PRIMARY KEY,
        expires REAL NOT NULL
    );
    CREATE INDEX spent_links_by_expiry ON spent_links (expires);
    """,
    # 9: every change of a lobby moves its version, which its buttons and pages carry: a
    # command drawn before a change (a second tap on Add computer) is refused as stale.
    """
    ALTER TABLE tables ADD COLUMN lobby_version INTEGER NOT NULL DEFAULT 0;
    """,
    # 10: a finished deal's double-dummy analysis, made once off the hot path and kept with
    # the match, so a replay asked again (or on another process) reads it instead of
    # solving the deal again. ``version``: the analysis's own, so a better one recomputes.
    """
    CREATE TABLE deal_reviews (
        table_id   INTEGER NOT NULL REFERENCES tables (id),
        deal       INTEGER NOT NULL,             -- the engine's deal number
        version    INTEGER NOT NULL,
        analysis   TEXT    NOT NULL,             -- the analysis as JSON
        created_at REAL    NOT NULL,
        PRIMARY KEY (table_id, deal)
    );
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
