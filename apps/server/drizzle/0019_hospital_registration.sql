ALTER TABLE "one_time_codes" DROP CONSTRAINT "one_time_codes_purpose_check";--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "licence_number" text;--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "licence_obtained" text;--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "licence_renewed" text;--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_purpose_check" CHECK ("one_time_codes"."purpose" in ('login', 'phone_change', 'phone_verification', 'request_confirmation', 'email_confirmation'));