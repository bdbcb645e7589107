CREATE TABLE "whatsapp_webhook_events" (
	"key" text PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "whatsapp_webhook_events_received_at_idx" ON "whatsapp_webhook_events" USING btree ("received_at");