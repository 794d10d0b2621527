ALTER TABLE "chat_windows" ADD COLUMN "last_arrived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_analyses" ADD COLUMN "arrived_seen_at" timestamp with time zone;