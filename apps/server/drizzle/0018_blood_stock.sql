CREATE TABLE "blood_stock" (
	"facility_id" text NOT NULL,
	"blood_type" text NOT NULL,
	"component" text NOT NULL,
	"units" integer NOT NULL,
	"expiring_units" integer,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "blood_stock_facility_id_blood_type_component_pk" PRIMARY KEY("facility_id","blood_type","component")
);
--> statement-breakpoint
CREATE TABLE "blood_stock_updates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"facility_id" text NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"user_id" uuid,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "verification_status" text DEFAULT 'verified' NOT NULL;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "registered_via" text DEFAULT 'invitation' NOT NULL;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "licence_number" text;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "contact_name" text;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "email_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "phone_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "verified_by" uuid;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "rejection_reason" text;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "stock_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "blood_stock" ADD CONSTRAINT "blood_stock_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blood_stock" ADD CONSTRAINT "blood_stock_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blood_stock_updates" ADD CONSTRAINT "blood_stock_updates_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blood_stock_updates" ADD CONSTRAINT "blood_stock_updates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blood_stock_available_idx" ON "blood_stock" USING btree ("component","blood_type","updated_at") WHERE "blood_stock"."units" > 0;--> statement-breakpoint
CREATE INDEX "blood_stock_updates_facility_at_idx" ON "blood_stock_updates" USING btree ("facility_id","at");--> statement-breakpoint
CREATE INDEX "hospitals_facility_id_idx" ON "hospitals" USING btree ("facility_id");