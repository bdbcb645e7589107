CREATE TABLE "channel_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"wording" text NOT NULL,
	"language" text NOT NULL,
	"granted_at" timestamp with time zone NOT NULL,
	"withdrawn_at" timestamp with time zone,
	"withdrawn_via" text,
	CONSTRAINT "channel_consents_channel_check" CHECK ("channel_consents"."channel" in ('sms', 'whatsapp'))
);
--> statement-breakpoint
ALTER TABLE "notification_deliveries" DROP CONSTRAINT "notification_deliveries_channel_check";--> statement-breakpoint
ALTER TABLE "notification_deliveries" DROP CONSTRAINT "notification_deliveries_status_check";--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "destination" text;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "critical" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "over_budget" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "blood_request_id" uuid;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "short_code" text;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "provider_message_id" text;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "receipt_status" text;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "receipt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "channel_consents" ADD CONSTRAINT "channel_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_consents_user_channel_idx" ON "channel_consents" USING btree ("user_id","channel","granted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_deliveries_short_code_unique" ON "notification_deliveries" USING btree ("short_code");--> statement-breakpoint
CREATE INDEX "notification_deliveries_provider_message_idx" ON "notification_deliveries" USING btree ("channel","provider_message_id");--> statement-breakpoint
CREATE INDEX "notification_deliveries_destination_idx" ON "notification_deliveries" USING btree ("destination","created_at");--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_channel_check" CHECK ("notification_deliveries"."channel" in ('push', 'email', 'sms', 'whatsapp'));--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_status_check" CHECK ("notification_deliveries"."status" in ('queued', 'sent', 'failed', 'gone', 'held', 'digested', 'skipped'));