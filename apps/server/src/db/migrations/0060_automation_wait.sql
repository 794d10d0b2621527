ALTER TABLE "automation_timers" ADD COLUMN "run_id" uuid;--> statement-breakpoint
ALTER TABLE "automation_timers" ADD COLUMN "resume_at" smallint;--> statement-breakpoint
ALTER TABLE "automation_timers" ADD CONSTRAINT "automation_timers_run_id_automation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."automation_runs"("id") ON DELETE cascade ON UPDATE no action;