CREATE TABLE "database_identity" (
	"id" smallint PRIMARY KEY NOT NULL,
	"identity" text NOT NULL,
	"history_from" bigint NOT NULL
);
