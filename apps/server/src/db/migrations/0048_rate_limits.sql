-- Decision 0004 amended: counting and admitting in one upsert on a counter row (lib/rate-limit.ts),
-- for login, forgot, order placement and every anonymous route; login_failures (a count, then an
-- insert: not atomic) goes. Its rows were 15-minute counters: nothing to carry over.
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_ends" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone,
	"admitted" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
DROP TABLE "login_failures";
