CREATE TABLE "contact_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"ip_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"handled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "education_categories" (
	"slug" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"sort_order" integer NOT NULL,
	"content_hash" text NOT NULL,
	"unpublished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "education_content" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"category" text NOT NULL,
	"body" text NOT NULL,
	"sources" jsonb NOT NULL,
	"reading_minutes" integer NOT NULL,
	"published_at" date NOT NULL,
	"featured" boolean DEFAULT false NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL,
	"content_hash" text NOT NULL,
	"unpublished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, coalesce("title", '')), 'A') || setweight(to_tsvector('english'::regconfig, coalesce("summary", '')), 'B') || setweight(to_tsvector('english'::regconfig, coalesce("body", '')), 'C')) STORED,
	CONSTRAINT "education_content_slug_unique" UNIQUE("slug"),
	CONSTRAINT "education_content_counts_check" CHECK ("education_content"."views" >= 0 and "education_content"."downloads" >= 0)
);
--> statement-breakpoint
CREATE TABLE "faqs" (
	"id" text PRIMARY KEY NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"category" text NOT NULL,
	"helpful_count" integer DEFAULT 0 NOT NULL,
	"not_helpful_count" integer DEFAULT 0 NOT NULL,
	"sort_order" integer NOT NULL,
	"content_hash" text NOT NULL,
	"unpublished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "faqs_counts_check" CHECK ("faqs"."helpful_count" >= 0 and "faqs"."not_helpful_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "pages" (
	"slug" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"version" text NOT NULL,
	"updated" date NOT NULL,
	"body" text NOT NULL,
	"content_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "reply_to" text;--> statement-breakpoint
CREATE INDEX "contact_messages_created_at_idx" ON "contact_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "education_content_search_idx" ON "education_content" USING gin ("search");--> statement-breakpoint
CREATE INDEX "education_content_category_idx" ON "education_content" USING btree ("category");--> statement-breakpoint
CREATE INDEX "education_content_published_at_idx" ON "education_content" USING btree ("published_at");--> statement-breakpoint
CREATE INDEX "faqs_category_sort_order_idx" ON "faqs" USING btree ("category","sort_order");