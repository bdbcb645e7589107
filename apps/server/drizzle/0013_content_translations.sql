CREATE TABLE "content_translations" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"language" text NOT NULL,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"sources" jsonb,
	"reading_minutes" integer,
	"content_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (case "language" when 'es' then setweight(to_tsvector('spanish'::regconfig, coalesce("title", '')), 'A') || setweight(to_tsvector('spanish'::regconfig, coalesce("summary", '')), 'B') || setweight(to_tsvector('spanish'::regconfig, coalesce("body", '')), 'C') else setweight(to_tsvector('simple'::regconfig, coalesce("title", '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("summary", '')), 'B') || setweight(to_tsvector('simple'::regconfig, coalesce("body", '')), 'C') end) STORED,
	CONSTRAINT "content_translations_kind_key_language_pk" PRIMARY KEY("kind","key","language"),
	CONSTRAINT "content_translations_kind_check" CHECK ("content_translations"."kind" in ('article', 'faq', 'page')),
	CONSTRAINT "content_translations_language_check" CHECK ("content_translations"."language" in ('es', 'hi'))
);
--> statement-breakpoint
CREATE INDEX "content_translations_search_idx" ON "content_translations" USING gin ("search");