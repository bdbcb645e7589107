ALTER TABLE "one_time_codes" DROP CONSTRAINT "one_time_codes_purpose_check";--> statement-breakpoint
ALTER TABLE "blood_requests" DROP CONSTRAINT "blood_requests_status_check";--> statement-breakpoint
ALTER TABLE "one_time_codes" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD COLUMN "blood_request_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_blood_request_id_blood_requests_id_fk" FOREIGN KEY ("blood_request_id") REFERENCES "public"."blood_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "one_time_codes_blood_request_idx" ON "one_time_codes" USING btree ("blood_request_id");--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_owner_check" CHECK (case when "one_time_codes"."purpose" = 'request_confirmation' then "one_time_codes"."blood_request_id" is not null and "one_time_codes"."user_id" is null else "one_time_codes"."user_id" is not null and "one_time_codes"."blood_request_id" is null end);--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_purpose_check" CHECK ("one_time_codes"."purpose" in ('login', 'phone_change', 'phone_verification', 'request_confirmation'));--> statement-breakpoint
ALTER TABLE "blood_requests" ADD CONSTRAINT "blood_requests_status_check" CHECK ("blood_requests"."status" in ('unconfirmed', 'pending', 'verified', 'in_progress', 'fulfilled', 'cancelled', 'expired'));