CREATE TABLE "document_chunks" (
	"document_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "document_chunks_document_id_seq_pk" PRIMARY KEY("document_id","seq")
);
--> statement-breakpoint
CREATE TABLE "limit_states" (
	"key" text PRIMARY KEY NOT NULL,
	"state" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_chunks" ADD CONSTRAINT "document_chunks_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "limit_states_expires_at_idx" ON "limit_states" USING btree ("expires_at");