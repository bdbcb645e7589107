CREATE TABLE "daily_counters" (
	"key" text NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_counters_key_day_pk" PRIMARY KEY("key","day")
);
--> statement-breakpoint
ALTER TABLE "one_time_codes" DROP CONSTRAINT "one_time_codes_purpose_check";--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD COLUMN "foreign_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD COLUMN "requested_from" text;--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD COLUMN "phone" text;--> statement-breakpoint
CREATE INDEX "daily_counters_day_idx" ON "daily_counters" USING btree ("day");--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_purpose_check" CHECK ("one_time_codes"."purpose" in ('login', 'phone_change'));