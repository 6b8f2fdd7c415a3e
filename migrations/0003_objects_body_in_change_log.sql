-- An object's body now lives only in its change-log row at objects.rv. Rows pruned from the log are put back
-- first, dated at the epoch so that they count as older than any history window (they are not history).
INSERT INTO "changes" ("rv", "resource", "namespace", "name", "type", "body", "at")
SELECT o."rv", o."resource", o."namespace", o."name", 2, o."body", 'epoch'::timestamptz
FROM "objects" o
WHERE NOT EXISTS (SELECT 1 FROM "changes" c WHERE c."rv" = o."rv");--> statement-breakpoint
ALTER TABLE "objects" DROP COLUMN "body";
