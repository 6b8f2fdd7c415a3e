-- resourceVersion 1 is the empty store; every write batch takes the next numbers from this row.
INSERT INTO "revision" ("id", "rv") VALUES (1, 1) ON CONFLICT DO NOTHING;
