-- pg_trgm powers the facilities search's trigram index. Where the extension cannot be created
-- (a managed server without the permission), the migration goes on and the search falls back
-- to ILIKE (the server checks pg_extension at run time).
DO $$ BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available: facilities search uses ILIKE';
END $$;--> statement-breakpoint
CREATE TABLE "blood_request_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"status" text NOT NULL,
	"notes" text,
	"by" uuid,
	"by_role" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blood_request_matches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"donor_id" uuid NOT NULL,
	"distance_km" double precision,
	"exact_type" boolean NOT NULL,
	"round" integer NOT NULL,
	"notified_at" timestamp with time zone NOT NULL,
	"response" text,
	"responded_at" timestamp with time zone,
	"donation_id" uuid,
	"donated_at" timestamp with time zone,
	CONSTRAINT "blood_request_matches_response_check" CHECK ("blood_request_matches"."response" is null or "blood_request_matches"."response" in ('accepted', 'declined'))
);
--> statement-breakpoint
CREATE TABLE "blood_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tracking_code" text NOT NULL,
	"status" text NOT NULL,
	"urgency" text NOT NULL,
	"blood_type" text NOT NULL,
	"units_needed" integer NOT NULL,
	"patient_name" text,
	"hospital_name" text NOT NULL,
	"hospital_name_key" text NOT NULL,
	"facility_id" text,
	"hospital_id" uuid,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"address" text,
	"pincode" text,
	"latitude" double precision,
	"longitude" double precision,
	"location_source" text,
	"contact_name" text NOT NULL,
	"contact_phone" text NOT NULL,
	"contact_email" text,
	"required_by" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"notes" text,
	"created_by" uuid,
	"created_by_role" text NOT NULL,
	"requester_ip_hash" text,
	"search_radius_km" double precision,
	"match_round" integer DEFAULT 0 NOT NULL,
	"last_matched_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"fulfilled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blood_requests_tracking_code_unique" UNIQUE("tracking_code"),
	CONSTRAINT "blood_requests_status_check" CHECK ("blood_requests"."status" in ('pending', 'verified', 'in_progress', 'fulfilled', 'cancelled', 'expired')),
	CONSTRAINT "blood_requests_urgency_check" CHECK ("blood_requests"."urgency" in ('urgent', 'critical')),
	CONSTRAINT "blood_requests_blood_type_check" CHECK ("blood_requests"."blood_type" in ('A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-')),
	CONSTRAINT "blood_requests_units_check" CHECK ("blood_requests"."units_needed" between 1 and 10)
);
--> statement-breakpoint
CREATE TABLE "data_imports" (
	"name" text PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"row_count" integer NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"duration_ms" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "facilities" (
	"id" text PRIMARY KEY NOT NULL,
	"sr_no" integer NOT NULL,
	"name" text NOT NULL,
	"category" text,
	"address" text,
	"city" text,
	"district" text,
	"state" text NOT NULL,
	"pincode" text,
	"phone" text,
	"mobile" text,
	"email" text,
	"website" text,
	"latitude" double precision,
	"longitude" double precision,
	"components" boolean,
	"apheresis" boolean,
	"service_time" text,
	"is_24x7" boolean DEFAULT false NOT NULL,
	"search" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pincodes" (
	"pincode" text PRIMARY KEY NOT NULL,
	"district" text,
	"state" text,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blood_request_history" ADD CONSTRAINT "blood_request_history_request_id_blood_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."blood_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blood_request_history" ADD CONSTRAINT "blood_request_history_by_users_id_fk" FOREIGN KEY ("by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blood_request_matches" ADD CONSTRAINT "blood_request_matches_request_id_blood_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."blood_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blood_request_matches" ADD CONSTRAINT "blood_request_matches_donor_id_users_id_fk" FOREIGN KEY ("donor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blood_request_matches" ADD CONSTRAINT "blood_request_matches_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blood_requests" ADD CONSTRAINT "blood_requests_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blood_requests" ADD CONSTRAINT "blood_requests_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blood_requests" ADD CONSTRAINT "blood_requests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blood_request_history_request_at_idx" ON "blood_request_history" USING btree ("request_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "blood_request_matches_request_donor_unique" ON "blood_request_matches" USING btree ("request_id","donor_id");--> statement-breakpoint
CREATE INDEX "blood_request_matches_donor_notified_idx" ON "blood_request_matches" USING btree ("donor_id","notified_at");--> statement-breakpoint
CREATE INDEX "blood_requests_status_expires_idx" ON "blood_requests" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "blood_requests_status_matched_idx" ON "blood_requests" USING btree ("status","last_matched_at");--> statement-breakpoint
CREATE INDEX "blood_requests_contact_phone_created_idx" ON "blood_requests" USING btree ("contact_phone","created_at");--> statement-breakpoint
CREATE INDEX "blood_requests_created_by_idx" ON "blood_requests" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "blood_requests_facility_idx" ON "blood_requests" USING btree ("facility_id");--> statement-breakpoint
CREATE INDEX "blood_requests_hospital_idx" ON "blood_requests" USING btree ("hospital_id");--> statement-breakpoint
CREATE INDEX "blood_requests_created_at_idx" ON "blood_requests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "facilities_lat_lng_idx" ON "facilities" USING btree ("latitude","longitude");--> statement-breakpoint
CREATE INDEX "facilities_state_district_idx" ON "facilities" USING btree ("state","district");--> statement-breakpoint
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX "facilities_search_trgm_idx" ON "facilities" USING gin ("search" gin_trgm_ops);
  END IF;
END $$;--> statement-breakpoint
CREATE INDEX "pincodes_lat_lng_idx" ON "pincodes" USING btree ("latitude","longitude");--> statement-breakpoint
CREATE INDEX "users_role_status_blood_type_idx" ON "users" USING btree ("role","status","blood_type");--> statement-breakpoint
CREATE INDEX "users_lat_lng_idx" ON "users" USING btree ("latitude","longitude");--> statement-breakpoint
CREATE INDEX "users_donor_geo_idx" ON "users" USING btree ("blood_type","latitude","longitude") WHERE "users"."role" = 'donor' and "users"."status" = 'approved' and "users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_donor_pincode_idx" ON "users" USING btree ("pincode") WHERE "users"."latitude" is null;