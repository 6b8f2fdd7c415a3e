DROP INDEX "changes_at";--> statement-breakpoint
CREATE INDEX "changes_at" ON "changes" USING brin ("at");