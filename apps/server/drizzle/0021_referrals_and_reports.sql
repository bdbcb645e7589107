CREATE TABLE "report_deliveries" (
	"month" text PRIMARY KEY NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"recipients" integer DEFAULT 0 NOT NULL
);
