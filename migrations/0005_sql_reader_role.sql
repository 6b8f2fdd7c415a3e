-- The read-only SQL interface (modules/sql): the role its users are granted, and the schema of its views. A role
-- belongs to the whole cluster, so another database's pgkube may have made it already, or be making it now.
-- Without CREATEROLE this only warns: the views then stay readable by their owner alone (nothing is exposed).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pgkube_reader') THEN
    CREATE ROLE pgkube_reader NOLOGIN;
  END IF;
EXCEPTION
  WHEN duplicate_object OR unique_violation THEN NULL;
  WHEN insufficient_privilege THEN
    RAISE WARNING 'pgkube: role pgkube_reader not created (this role lacks CREATEROLE); create it NOLOGIN and restart pgkube';
END $$;
--> statement-breakpoint
CREATE SCHEMA IF NOT EXISTS k8s;
--> statement-breakpoint
-- The base tables are reached only through the views (which read them with their owner's rights). Nobody else
-- writes in the public schema either (PostgreSQL 15's default, made explicit for older servers).
REVOKE ALL ON "objects", "changes", "revision" FROM PUBLIC;
--> statement-breakpoint
DO $$
BEGIN
  REVOKE CREATE ON SCHEMA public FROM PUBLIC;
EXCEPTION
  WHEN invalid_schema_name THEN NULL;
END $$;
