CREATE TABLE "client_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"level" text NOT NULL,
	"message" text NOT NULL,
	"category" text,
	"url" text,
	"stack" text,
	"context" jsonb,
	"session_id" text,
	"client_version" text,
	"user_agent" text,
	"user_id" uuid,
	"ip_hash" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_logs_level_check" CHECK ("client_logs"."level" in ('debug', 'info', 'warn', 'error'))
);
--> statement-breakpoint
ALTER TABLE "client_logs" ADD CONSTRAINT "client_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_logs_received_at_idx" ON "client_logs" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "client_logs_level_received_at_idx" ON "client_logs" USING btree ("level","received_at");