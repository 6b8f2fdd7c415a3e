-- The audit event's fields become the table's columns (bench/audit: writing them costs the request's thread less
-- than serializing each event as JSON did); the view puts kube's JSON back together. The view reads the column
-- this migration drops: it goes first.
DROP VIEW IF EXISTS "k8s"."audit_events";--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "received_at" timestamp (6) with time zone;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "audit_id" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "stage" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "level" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "verb" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "request_uri" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "user_info" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "impersonated_user_info" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "source_ips" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "api_group" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "api_version" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "resource" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "subresource" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "namespace" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "uid" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "resource_version" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "code" integer;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "response_status" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "request_object" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "response_object" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "annotations" text;--> statement-breakpoint
-- The events written so far, each parsed once into the columns. jsonb holds no NUL character: an escaped one
-- becomes U+FFFD, as the backend now writes it.
UPDATE "audit_events" a
SET ("received_at", "audit_id", "stage", "level", "verb", "request_uri", "user_info", "impersonated_user_info",
     "source_ips", "user_agent", "api_group", "api_version", "resource", "subresource", "namespace", "name",
     "uid", "resource_version", "code", "response_status", "request_object", "response_object", "annotations") =
    (SELECT (e ->> 'requestReceivedTimestamp')::timestamptz, e ->> 'auditID', e ->> 'stage', e ->> 'level',
            e ->> 'verb', coalesce(e ->> 'requestURI', ''), coalesce(e -> 'user', '{}')::text,
            (e -> 'impersonatedUser')::text, (e -> 'sourceIPs')::text, e ->> 'userAgent',
            e #>> '{objectRef,apiGroup}', e #>> '{objectRef,apiVersion}', e #>> '{objectRef,resource}',
            e #>> '{objectRef,subresource}', e #>> '{objectRef,namespace}', e #>> '{objectRef,name}',
            e #>> '{objectRef,uid}', e #>> '{objectRef,resourceVersion}', (e #>> '{responseStatus,code}')::int,
            CASE WHEN (e -> 'responseStatus') - 'metadata' - 'code' <> '{}' THEN (e -> 'responseStatus')::text END,
            (e -> 'requestObject')::text, (e -> 'responseObject')::text, (e -> 'annotations')::text
     FROM (SELECT replace(a."event", '\u0000', '\ufffd')::jsonb AS e) j);--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "event";--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "received_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "audit_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "stage" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "level" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "verb" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "request_uri" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "user_info" SET NOT NULL;--> statement-breakpoint
-- The read-only SQL interface to the audit log (README "Audit"): the table's columns, the usernames, the
-- authorization decision, and `event`, the whole audit.k8s.io/v1 Event as the log file holds it. A query pays
-- only for the columns it reads: one that does not read `event` parses no JSON but the user's.
CREATE VIEW "k8s"."audit_events" AS
SELECT a."at", a."received_at", a."audit_id", a."stage", a."level", a."verb",
       a."user_info"::jsonb ->> 'username' AS "username",
       a."impersonated_user_info"::jsonb ->> 'username' AS "impersonated_user",
       a."api_group", a."resource", a."subresource", a."namespace", a."name", a."code",
       a."annotations"::jsonb ->> 'authorization.k8s.io/decision' AS "decision",
       a."request_uri", a."user_agent", a."api_version",
       jsonb_strip_nulls(jsonb_build_object(
         'kind', 'Event', 'apiVersion', 'audit.k8s.io/v1', 'level', a."level", 'auditID', a."audit_id",
         'stage', a."stage", 'requestURI', a."request_uri", 'verb', a."verb", 'userAgent', a."user_agent",
         'objectRef', CASE WHEN a."resource" IS NOT NULL THEN jsonb_build_object(
           'resource', a."resource", 'namespace', a."namespace", 'name', a."name", 'uid', a."uid",
           'apiGroup', a."api_group", 'apiVersion', a."api_version", 'resourceVersion', a."resource_version",
           'subresource', a."subresource") END,
         'requestReceivedTimestamp', to_char(a."received_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
         'stageTimestamp', to_char(a."at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')))
       -- parts that are JSON already, joined after the nulls are stripped (an object may hold nulls of its own)
       || jsonb_build_object('user', a."user_info"::jsonb)
       || CASE WHEN a."impersonated_user_info" IS NULL THEN '{}'
               ELSE jsonb_build_object('impersonatedUser', a."impersonated_user_info"::jsonb) END
       || CASE WHEN a."source_ips" IS NULL THEN '{}' ELSE jsonb_build_object('sourceIPs', a."source_ips"::jsonb) END
       || CASE WHEN a."response_status" IS NOT NULL
               THEN jsonb_build_object('responseStatus', a."response_status"::jsonb)
               WHEN a."code" IS NOT NULL
               THEN jsonb_build_object('responseStatus', jsonb_build_object('metadata', '{}'::jsonb, 'code', a."code"))
               ELSE '{}' END
       || CASE WHEN a."request_object" IS NULL THEN '{}'
               ELSE jsonb_build_object('requestObject', a."request_object"::jsonb) END
       || CASE WHEN a."response_object" IS NULL THEN '{}'
               ELSE jsonb_build_object('responseObject', a."response_object"::jsonb) END
       || CASE WHEN a."annotations" IS NULL THEN '{}' ELSE jsonb_build_object('annotations', a."annotations"::jsonb) END
       AS "event"
FROM "audit_events" a;--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pgkube_reader') THEN
    GRANT USAGE ON SCHEMA "k8s" TO "pgkube_reader";
    GRANT SELECT ON "k8s"."audit_events" TO "pgkube_reader";
  END IF;
END $$;
