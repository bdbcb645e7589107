DROP INDEX "users_donor_geo_idx";--> statement-breakpoint
ALTER TABLE "blood_requests" ADD COLUMN "is_demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "blood_stock" ADD COLUMN "is_demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "is_demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "users_demo_idx" ON "users" USING btree ("is_demo") WHERE "users"."is_demo";--> statement-breakpoint
CREATE INDEX "users_donor_geo_idx" ON "users" USING btree ("blood_type","latitude","longitude","id","role","status","gender","available","availability_confirmed_at","available_until","last_donation_at") WHERE "users"."role" = 'donor' and "users"."status" = 'approved' and "users"."deleted_at" is null and not "users"."is_demo";