CREATE TABLE "places" (
	"id" integer PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"pincode" text,
	"district" text,
	"state" text,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"confidence" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pincodes" ADD COLUMN "confidence" text DEFAULT 'medium' NOT NULL;--> statement-breakpoint
ALTER TABLE "pincodes" ADD COLUMN "source" text DEFAULT 'india-post' NOT NULL;--> statement-breakpoint
CREATE INDEX "places_key_idx" ON "places" USING btree ("key" text_pattern_ops);