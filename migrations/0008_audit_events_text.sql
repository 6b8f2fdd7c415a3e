-- The view reads the columns this migration drops: it goes first, and comes back reading them out of the event.
DROP VIEW IF EXISTS "k8s"."audit_events";--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "event" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "received_at";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "audit_id";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "stage";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "level";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "verb";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "username";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "impersonated_user";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "api_group";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "resource";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "subresource";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "namespace";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "name";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "code";--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "decision";--> statement-breakpoint
-- The read-only SQL interface to the audit log (README "Audit"): the event parsed once per row (OFFSET 0 keeps
-- PostgreSQL from parsing it again for every column), its main fields as columns.
CREATE VIEW "k8s"."audit_events" AS
SELECT a."at",
       (j.e ->> 'requestReceivedTimestamp')::timestamptz AS "received_at",
       j.e ->> 'auditID' AS "audit_id",
       j.e ->> 'stage' AS "stage",
       j.e ->> 'level' AS "level",
       j.e ->> 'verb' AS "verb",
       j.e #>> '{user,username}' AS "username",
       j.e #>> '{impersonatedUser,username}' AS "impersonated_user",
       j.e #>> '{objectRef,apiGroup}' AS "api_group",
       j.e #>> '{objectRef,resource}' AS "resource",
       j.e #>> '{objectRef,subresource}' AS "subresource",
       j.e #>> '{objectRef,namespace}' AS "namespace",
       j.e #>> '{objectRef,name}' AS "name",
       (j.e #>> '{responseStatus,code}')::int AS "code",
       j.e #>> '{annotations,authorization.k8s.io/decision}' AS "decision",
       j.e AS "event"
FROM "audit_events" a
CROSS JOIN LATERAL (SELECT a."event"::jsonb AS e OFFSET 0) j;--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pgkube_reader') THEN
    GRANT USAGE ON SCHEMA "k8s" TO "pgkube_reader";
    GRANT SELECT ON "k8s"."audit_events" TO "pgkube_reader";
  END IF;
END $$;
