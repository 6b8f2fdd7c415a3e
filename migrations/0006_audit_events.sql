CREATE TABLE "audit_events" (
	"at" timestamp (6) with time zone NOT NULL,
	"received_at" timestamp (6) with time zone NOT NULL,
	"audit_id" text NOT NULL,
	"stage" text NOT NULL,
	"level" text NOT NULL,
	"verb" text NOT NULL,
	"username" text,
	"impersonated_user" text,
	"api_group" text,
	"resource" text,
	"subresource" text,
	"namespace" text,
	"name" text,
	"code" integer,
	"decision" text,
	"event" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_events_at" ON "audit_events" USING brin ("at");--> statement-breakpoint
ALTER TABLE "audit_events" REPLICA IDENTITY FULL;--> statement-breakpoint
-- The read-only SQL interface to the audit log (README "Audit"). Schema k8s and role pgkube_reader may come from
-- the live-views migration too: each side creates the schema if missing and grants only to a role that exists.
CREATE SCHEMA IF NOT EXISTS "k8s";--> statement-breakpoint
CREATE OR REPLACE VIEW "k8s"."audit_events" AS
SELECT "at", "received_at", "audit_id", "stage", "level", "verb", "username", "impersonated_user",
       "api_group", "resource", "subresource", "namespace", "name", "code", "decision", "event"
FROM "audit_events";--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pgkube_reader') THEN
    GRANT USAGE ON SCHEMA "k8s" TO "pgkube_reader";
    GRANT SELECT ON "k8s"."audit_events" TO "pgkube_reader";
  END IF;
END $$;
