-- A request's RequestReceived event may share the row of its next event (PostgreSQL's cost is per row, and it
-- says little the next one does not: bench/audit); the view gives it its own row again.
ALTER TABLE "audit_events" ADD COLUMN "received_stage_at" timestamp (6) with time zone;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "received_lacks" smallint;--> statement-breakpoint
CREATE INDEX "audit_events_received_stage_at" ON "audit_events" USING brin ("received_stage_at");--> statement-breakpoint
DROP VIEW "k8s"."audit_events";--> statement-breakpoint
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
FROM (
  SELECT "at", "received_at", "audit_id", "stage", "level", "verb", "request_uri", "user_info",
         "impersonated_user_info", "source_ips", "user_agent", "api_group", "api_version", "resource",
         "subresource", "namespace", "name", "uid", "resource_version", "code", "response_status",
         "request_object", "response_object", "annotations"
  FROM "audit_events"
  UNION ALL
  -- a RequestReceived in its request's next row: the user, the URI and the rest that it shares with it, none of
  -- what later steps add, and of objectRef the fields it did not lack (bits: resource 1, namespace 2, name 4,
  -- uid 8, apiGroup 16, apiVersion 32, resourceVersion 64, subresource 128)
  SELECT "received_stage_at", "received_at", "audit_id", 'RequestReceived', "level", "verb", "request_uri",
         "user_info", NULL, "source_ips", "user_agent",
         CASE WHEN "received_lacks" & 16 = 0 THEN "api_group" END,
         CASE WHEN "received_lacks" & 32 = 0 THEN "api_version" END,
         CASE WHEN "received_lacks" & 1 = 0 THEN "resource" END,
         CASE WHEN "received_lacks" & 128 = 0 THEN "subresource" END,
         CASE WHEN "received_lacks" & 2 = 0 THEN "namespace" END,
         CASE WHEN "received_lacks" & 4 = 0 THEN "name" END,
         CASE WHEN "received_lacks" & 8 = 0 THEN "uid" END,
         CASE WHEN "received_lacks" & 64 = 0 THEN "resource_version" END,
         NULL, NULL, NULL, NULL, NULL
  FROM "audit_events" WHERE "received_stage_at" IS NOT NULL
) a;--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pgkube_reader') THEN
    GRANT USAGE ON SCHEMA "k8s" TO "pgkube_reader";
    GRANT SELECT ON "k8s"."audit_events" TO "pgkube_reader";
  END IF;
END $$;
