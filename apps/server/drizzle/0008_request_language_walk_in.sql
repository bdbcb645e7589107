ALTER TABLE "blood_requests" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "blood_requests" ADD COLUMN "tracking_link_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "walk_in" boolean DEFAULT false NOT NULL;