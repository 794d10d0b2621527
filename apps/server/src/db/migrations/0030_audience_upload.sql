ALTER TABLE "audience_sends" ADD COLUMN "total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD COLUMN "sent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD COLUMN "received" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD COLUMN "invalid" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD COLUMN "skipped" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD COLUMN "batches_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD COLUMN "batches_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD COLUMN "cursor_id" uuid;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD COLUMN "session_id" text;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD COLUMN "session_seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD COLUMN "in_flight" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD COLUMN "finished_at" timestamp with time zone;