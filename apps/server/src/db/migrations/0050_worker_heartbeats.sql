-- Decision 0066: every process that works jobs (the server with WORKERS=inline, each `npm run worker`)
-- writes its row here every few seconds; /api/health/ready is ready only while some row is fresh.
CREATE TABLE "worker_heartbeats" (
	"id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
