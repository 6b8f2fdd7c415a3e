CREATE TABLE "changes" (
	"rv" bigint PRIMARY KEY NOT NULL,
	"resource" text NOT NULL,
	"namespace" text NOT NULL,
	"name" text NOT NULL,
	"type" smallint NOT NULL,
	"body" jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "objects" (
	"resource" text NOT NULL,
	"namespace" text NOT NULL,
	"name" text NOT NULL,
	"uid" uuid NOT NULL,
	"rv" bigint NOT NULL,
	"body" jsonb NOT NULL,
	CONSTRAINT "objects_resource_namespace_name_pk" PRIMARY KEY("resource","namespace","name")
);
--> statement-breakpoint
CREATE TABLE "revision" (
	"id" smallint PRIMARY KEY NOT NULL,
	"rv" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "changes_at" ON "changes" USING btree ("at");